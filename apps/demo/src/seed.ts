import type { NewNotification, NotificationStorage } from '@org/notifications';

type SeedContent = Omit<NewNotification, 'userId' | 'type' | 'message' | 'action_url' | 'icon' | 'icon_class' | 'actions' | 'data'> &
  Partial<Pick<NewNotification, 'type' | 'message' | 'action_url' | 'icon' | 'actions' | 'data'>>;

const SAMPLES: readonly SeedContent[] = [
  { type: 'CommentAdded', title: 'Grace commented on your post', message: 'Nice analysis of the engine!', icon: 'message', action_url: '/inbox/comment' },
  {
    type: 'AccessRequested',
    title: 'Charles asks for access',
    message: 'He wants to edit “Notes on the Analytical Engine”.',
    icon: 'user',
    action_url: '/inbox/access',
    actions: [
      { name: 'approve', label: 'Approve', event: 'approve-request', type: 'success', data: { request: 7 } },
      { name: 'review', label: 'Review', url: '/inbox/access-review', type: 'info' },
    ],
  },
  { type: 'InvoicePaid', title: 'Invoice paid', message: 'We received €120 for invoice 2024-017.', icon: 'check', action_url: '/inbox/invoice' },
  { type: 'PostPublished', title: 'Your post is live', message: 'Readers can now find it on the front page.', icon: 'post', action_url: '/inbox/post' },
  { type: 'SecurityAlert', title: 'New sign-in from Firefox', message: 'If this was not you, change your password.', icon: 'alert', action_url: '/inbox/security' },
  { type: 'Digest', title: 'Weekly digest', message: '12 new posts in the topics you follow.', icon: 'info', action_url: '/inbox/digest' },
  { type: 'Mention', title: 'Mary mentioned you', message: '@ada what do you think?', icon: 'bell', action_url: '/inbox/mention' },
];

/** Replaces the user's notifications with `count` samples; the first `readCount` (oldest) are already read. */
export async function seedNotifications(store: NotificationStorage, userId: string, count: number, readCount = 2): Promise<void> {
  await store.deleteAll(userId);
  for (let index = 0; index < count; index += 1) {
    const sample = SAMPLES[index % SAMPLES.length] as SeedContent;
    const round = Math.floor(index / SAMPLES.length);
    const created = await store.create({
      userId,
      type: sample.type ?? 'DemoNotification',
      title: round === 0 ? sample.title : `${sample.title} (${round + 1})`,
      message: sample.message ?? null,
      action_url: sample.action_url ? `${sample.action_url}-${index + 1}` : null,
      icon: sample.icon ?? null,
      icon_class: null,
      actions: sample.actions ?? [],
      data: sample.data ?? {},
    });
    if (index < readCount) await store.markRead(userId, created.id);
  }
}
