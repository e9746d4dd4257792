// Page behaviour of the demo: theme switch, the send form, "delete all" and "reset"
// without reloading, so live updates can be watched arriving in the bell.
const csrfToken = () => document.querySelector('meta[name="csrfToken"]')?.getAttribute('content') ?? '';
const status = document.getElementById('send-status');

function say(text) {
  if (status) status.textContent = text;
}

async function call(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', 'X-CSRF-Token': csrfToken() },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(json.error ?? `HTTP ${response.status}`);
  return json;
}

for (const radio of document.querySelectorAll('input[name="theme"]')) {
  radio.addEventListener('change', () => {
    const theme = radio.value;
    if (theme === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    // Keep the choice in the address and in the mode links.
    for (const link of [window.location, ...document.querySelectorAll('nav a')]) {
      const url = new URL(link.href);
      if (theme === 'auto') url.searchParams.delete('theme');
      else url.searchParams.set('theme', theme);
      if (link === window.location) history.replaceState(null, '', url);
      else link.href = url.pathname + url.search;
    }
  });
}

document.getElementById('send-form')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.currentTarget);
  const body = Object.fromEntries([...form.entries()].filter(([name]) => name !== '_csrf'));
  say('Sending…');
  try {
    const { notification } = await call('POST', '/demo/notifications', body);
    say(`Sent “${notification.title}”.`);
  } catch (error) {
    say(`Not sent: ${error.message}`);
  }
});

document.getElementById('delete-all')?.addEventListener('click', async () => {
  try {
    const { deleted } = await call('DELETE', '/notification/notifications.json');
    say(`Deleted ${deleted} notification${deleted === 1 ? '' : 's'}.`);
  } catch (error) {
    say(`Not deleted: ${error.message}`);
  }
});

document.querySelector('form[action="/demo/reset"]')?.addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    await call('POST', '/demo/reset');
    window.location.reload();
  } catch (error) {
    say(`Not reset: ${error.message}`);
  }
});

// An action with `event` (the "Approve" button of the access request) dispatches it on window.
window.addEventListener('approve-request', (event) => {
  say(`Approved request ${event.detail.request} (from notification ${event.detail.notificationId}).`);
});
