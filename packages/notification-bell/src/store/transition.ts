import type { NotificationBellError } from '../errors.js';
import type { AppNotification } from '../types.js';
import { applyChange } from './apply-change.js';
import type { Snapshot } from './apply-change.js';
import { byNewest, createdTime, visibleSnapshot } from './derive.js';
import type { Change, FeedFilter, Known, ListState, StoreState } from './state.js';

/** Everything that can happen to the store. */
export type StoreInput =
  | { type: 'pageRequested'; filter: FeedFilter; page: number }
  | {
      type: 'pageLoaded';
      filter: FeedFilter;
      page: number;
      /** The store's page size: a refresh shows at least this many rows. */
      pageSize: number;
      rows: readonly AppNotification[];
      hasMore: boolean;
      unreadCount: number | undefined;
      nextCursor: string | null;
      requestedAt: number;
      /** For a page asked for by cursor: the `created_at` the list reached when it was asked for. */
      continuesFrom: string | null;
      /** When the answer came (ISO), for what it implies, such as an item read elsewhere. */
      receivedAt: string;
    }
  | { type: 'pageFailed'; filter: FeedFilter; page: number; error: NotificationBellError }
  /** A request refused as invalid that the store replaces with another (nothing learned). */
  | { type: 'pageAbandoned'; filter: FeedFilter }
  | { type: 'changeStarted'; id: number; change: Change }
  /** A change that waited for an earlier change to the same item is sent now. */
  | { type: 'changeSent'; id: number }
  | { type: 'changeConfirmed'; id: number; unreadCount: number | undefined }
  | { type: 'changeFailed'; id: number; error: NotificationBellError }
  /** A change made elsewhere: another tab or the server's live channel. */
  | { type: 'remoteChange'; change: Change | null; unreadCount: number | undefined }
  | { type: 'localAdded'; item: AppNotification }
  | { type: 'initialCount'; value: number }
  /** "Load more" shows rows a refresh already brought (and checked) past the list's end. */
  | { type: 'revealed'; filter: FeedFilter; oldest: string };

/** Side effects for the store's shell to perform (DOM events, announcements); the transition itself has none. */
export type Notice =
  | { type: 'received'; item: AppNotification }
  | { type: 'arrivals'; count: number }
  /** A change became visible (remote) or was confirmed (the user's own). */
  | { type: 'applied'; change: Change; touched: readonly string[]; unreadCount: number }
  | { type: 'failed'; change: Change | null; page?: number; error: NotificationBellError };

export interface TransitionResult {
  state: StoreState;
  notices: Notice[];
}

const snapshotOf = (state: StoreState): Snapshot => ({ items: new Map([...state.items].map(([id, known]) => [id, known.value])), unreadCount: state.unreadCount.value });

/** Writes a snapshot back as confirmed knowledge, stamping what changed with `at`. */
function confirm(state: StoreState, snapshot: Snapshot, touched: readonly string[], at: number, unreadCount: number | undefined): Pick<StoreState, 'items' | 'gone' | 'unreadCount'> {
  const items = new Map(state.items);
  const gone = new Map(state.gone);
  for (const id of touched) {
    const item = snapshot.items.get(id);
    if (item) items.set(id, { value: item, at });
    else {
      items.delete(id);
      gone.set(id, at);
    }
  }
  const count: Known<number> =
    unreadCount !== undefined
      ? { value: serverCountWithLocal(state, items, unreadCount), at }
      : snapshot.unreadCount !== state.unreadCount.value
        ? { value: snapshot.unreadCount, at }
        : state.unreadCount;
  return { items, gone, unreadCount: count };
}

/** The server does not know page-local items: the count the page shows adds those still unread. */
function serverCountWithLocal(state: StoreState, items: ReadonlyMap<string, Known<AppNotification>>, serverCount: number): number {
  let local = 0;
  for (const id of state.localOnly) if (items.get(id)?.value.read_at === null) local += 1;
  return serverCount + local;
}

const older = (a: string | null, b: string | null): string | null => (a === null ? b : b === null ? a : Date.parse(a) <= Date.parse(b) ? a : b);

function withList(state: StoreState, filter: FeedFilter, patch: Partial<ListState>): StoreState['lists'] {
  return { ...state.lists, [filter]: { ...state.lists[filter], ...patch } };
}

/** Pages answered: once none is in flight, no stale page can bring back what changed meanwhile. */
function pageSettled(state: StoreState): Pick<StoreState, 'pageRequestsInFlight' | 'gone' | 'bulk'> {
  const pageRequestsInFlight = state.pageRequestsInFlight - 1;
  return pageRequestsInFlight === 0 ? { pageRequestsInFlight, gone: new Map(), bulk: [] } : { pageRequestsInFlight, gone: state.gone, bulk: state.bulk };
}

/** Remembers a bulk change for pages still in flight. */
function withBulk(state: StoreState, change: Change, at: number): StoreState['bulk'] {
  if (state.pageRequestsInFlight === 0 || (change.kind !== 'markAllRead' && change.kind !== 'deleteAll')) return state.bulk;
  return [...state.bulk, { change, at }];
}

/** A row as it is now: bulk changes made after its page was asked for are applied to it (undefined: deleted). */
function replayBulk(state: StoreState, row: AppNotification, requestedAt: number): AppNotification | undefined {
  let current: AppNotification | undefined = row;
  for (const { change, at } of state.bulk) {
    if (at <= requestedAt || !current) continue;
    if (change.kind === 'deleteAll') current = undefined;
    else if (current.read_at === null) current = { ...current, read_at: change.readAt };
  }
  return current;
}

/**
 * What the server did for a confirmed change. Mark-all-read (and delete-all) covered every
 * item known when the user asked (including rows a page brought meanwhile),
 * not only those they saw; items pushed since keep their state.
 */
function confirmedForm(state: StoreState, { change, sentAt }: { change: Change; sentAt: number }): Change {
  if ((change.kind !== 'markAllRead' && change.kind !== 'deleteAll') || !change.ids) return change;
  const ids = new Set(change.ids);
  // The server also acts on everything it had when the request was sent; page-local items it never
  // had are spared unless the user saw them when pressing (then they are in `change.ids`).
  for (const [id, known] of state.items) if (known.at <= sentAt && !state.localOnly.has(id)) ids.add(id);
  return { ...change, ids };
}

function remoteChange(state: StoreState, change: Change | null, unreadCount: number | undefined, local: boolean): TransitionResult {
  const seq = state.seq + 1;
  const notices: Notice[] = [];
  // A late copy of something deleted meanwhile stays deleted.
  if (change?.kind === 'insert' && state.gone.has(change.item.id)) return { state, notices };
  // Announce only what the user did not already see (an echo of their own change is silent).
  const seen = change ? applyChange(visibleSnapshot(state), change, state.localOnly) : { touched: [], removed: [] };
  const snapshot = snapshotOf(state);
  const { touched }: { touched: readonly string[] } = change ? applyChange(snapshot, change, state.localOnly) : { touched: [] };
  let next: StoreState = { ...state, seq, ...confirm(state, snapshot, touched, seq, unreadCount), bulk: change ? withBulk(state, change, seq) : state.bulk };
  // The event says how an item is now even when that changes nothing here (it may undo a change of ours in
  // flight): stamp it, so an older answer to ours does not overrule it.
  const said = change && 'id' in change ? next.items.get(change.id) : undefined;
  if (change && 'id' in change && said && !touched.includes(change.id)) next = { ...next, items: new Map(next.items).set(change.id, { value: said.value, at: seq }) };
  if (change?.kind === 'insert') next = { ...next, newestSeen: Math.max(next.newestSeen, createdTime(change.item)) };
  if (change?.kind === 'insert' && local && touched.length > 0) next = { ...next, localOnly: new Set(state.localOnly).add(change.item.id) };
  if (change?.kind === 'insert' && !local && state.localOnly.has(change.item.id)) {
    const localOnly = new Set(state.localOnly);
    localOnly.delete(change.item.id);
    next = { ...next, localOnly };
  }
  if (change?.kind === 'deleteAll') next = { ...next, lists: { all: { ...next.lists.all, hasMore: false }, unread: { ...next.lists.unread, hasMore: false } } };
  if (change && seen.touched.length > 0) {
    if (change.kind === 'insert') {
      notices.push({ type: 'received', item: change.item });
      if (change.item.read_at === null) notices.push({ type: 'arrivals', count: 1 });
    } else {
      notices.push({ type: 'applied', change, touched: seen.touched, unreadCount: visibleSnapshot(next).unreadCount });
    }
  }
  return { state: next, notices };
}

function pageLoaded(state: StoreState, input: Extract<StoreInput, { type: 'pageLoaded' }>): TransitionResult {
  const { filter, page, pageSize, rows, hasMore, unreadCount, requestedAt, continuesFrom } = input;
  const list = state.lists[filter];
  const items = new Map(state.items);
  const gone = new Map(state.gone);
  const localOnly = new Set(state.localOnly);
  const visibleBefore = visibleSnapshot(state).items;
  // Only rows newer than anything ever seen are news: after the user deleted what was shown, older rows are not.
  const newestBefore = state.newestSeen;
  const notices: Notice[] = [];
  let arrivals = 0;

  for (const answered of rows) {
    const goneAt = gone.get(answered.id);
    const known = items.get(answered.id);
    const row = replayBulk(state, answered, requestedAt);
    // Knowledge learned after this page was requested is newer than the page.
    if (!row || (goneAt !== undefined && goneAt > requestedAt) || (known && known.at > requestedAt)) continue;
    items.set(row.id, { value: row, at: requestedAt });
    localOnly.delete(row.id);
    if (list.hasLoaded && page === 1 && !visibleBefore.has(row.id) && createdTime(row) > newestBefore) {
      notices.push({ type: 'received', item: row });
      if (row.read_at === null) arrivals += 1;
    }
  }

  // A page is a contiguous slice of the server's list, so what it does not list inside its range changed
  // elsewhere: from "All" it was deleted (or archived); from "Unread" it was read, deleted or archived, so it
  // is only forgotten until "All" says which. Page 1 reaches up to the newest, a page by cursor up to where
  // the list was, any page down to its oldest row (the last one to the very oldest). Bounds are strict:
  // rows with equal times may sit on a neighbouring page.
  const listed = new Set(rows.map((row) => row.id));
  const times = rows.map(createdTime);
  const lower = hasMore ? Math.min(...times) : -Infinity;
  const upper = page === 1 ? Infinity : continuesFrom !== null ? Date.parse(continuesFrom) : Math.max(...times);
  for (const [id, known] of state.items) {
    const time = createdTime(known.value);
    if (listed.has(id) || known.at > requestedAt || localOnly.has(id) || time <= lower || time >= upper) continue;
    if (filter === 'unread') {
      // Read, deleted or archived: read is what the "All" list still shows until its own page says otherwise.
      if (known.value.read_at === null) items.set(id, { value: { ...known.value, read_at: input.receivedAt }, at: requestedAt });
      continue;
    }
    items.delete(id);
    gone.set(id, requestedAt);
  }

  const oldestRow = rows.length > 0 ? rows[times.indexOf(Math.min(...times))]!.created_at : null;
  // A refresh asks for what the list shows plus a page (see `refresh`), to re-check every shown item and
  // see what arrived. It does not lengthen the list: when its answer reaches the oldest shown item, the
  // list still ends there (older rows are kept, hidden, for "load more"); when more than a page arrived,
  // the answer becomes the list. A "load more" asked for after the refresh already extended it. Any
  // other page extends the list.
  const shownFrom = list.hasLoaded && list.hasMore ? list.oldest : null;
  const reachesShown = shownFrom !== null && oldestRow !== null && Date.parse(oldestRow) <= Date.parse(shownFrom);
  let reach: Partial<ListState>;
  if (page > 1) reach = { oldest: older(list.oldest, oldestRow), hasMore, cursor: input.nextCursor, cursorAt: oldestRow, extendedAt: requestedAt };
  else if (requestedAt < list.extendedAt) reach = { oldest: older(list.oldest, oldestRow) };
  // …but it shows at least a page, so a list the user emptied fills up again.
  else if (reachesShown) reach = { oldest: older(shownFrom, [...rows].sort(byNewest)[Math.min(pageSize, rows.length) - 1]!.created_at), hasMore, cursor: input.nextCursor, cursorAt: oldestRow };
  else reach = { oldest: oldestRow, hasMore, cursor: input.nextCursor, cursorAt: oldestRow };
  // A count from a page is stale if the count changed since it was asked for, or while the user's own changes are in flight.
  const takeCount = unreadCount !== undefined && state.pending.size === 0 && state.unreadCount.at <= requestedAt;
  const settled = pageSettled({ ...state, gone });
  const next: StoreState = {
    ...state,
    items,
    localOnly,
    ...settled,
    unreadCount: takeCount ? { value: serverCountWithLocal({ ...state, localOnly }, items, unreadCount), at: requestedAt } : state.unreadCount,
    lists: withList(state, filter, { pages: page === 1 && !reachesShown ? 1 : Math.max(list.pages, page), ...reach, loading: false, hasLoaded: true, error: null }),
    syncError: null,
    signedOut: false,
    newestSeen: Math.max(state.newestSeen, ...times),
  };
  if (arrivals > 0) notices.push({ type: 'arrivals', count: arrivals });
  return { state: next, notices };
}

/** The store's one state machine: pure, so every path (user, server, other tabs, polls) goes through the same rules. */
export function transition(state: StoreState, input: StoreInput): TransitionResult {
  switch (input.type) {
    case 'pageRequested':
      return {
        state: { ...state, pageRequestsInFlight: state.pageRequestsInFlight + 1, lists: withList(state, input.filter, { loading: input.page === 1 ? 'refresh' : 'more' }) },
        notices: [],
      };
    case 'pageLoaded':
      return pageLoaded(state, input);
    case 'pageAbandoned':
      return { state: { ...state, ...pageSettled(state), lists: withList(state, input.filter, { loading: false }) }, notices: [] };
    case 'pageFailed': {
      const list = state.lists[input.filter];
      const stale = list.hasLoaded && input.page === 1;
      return {
        state: {
          ...state,
          ...pageSettled(state),
          lists: withList(state, input.filter, { loading: false, error: list.hasLoaded ? list.error : input.error }),
          syncError: stale ? input.error : state.syncError,
          // Only a success clears "signed out": a network failure says nothing about the session.
          signedOut: input.error.status === 401 || state.signedOut,
        },
        notices: [{ type: 'failed', change: null, page: input.page, error: input.error }],
      };
    }
    case 'changeStarted': {
      const seq = state.seq + 1;
      return { state: { ...state, seq, pending: new Map(state.pending).set(input.id, { change: input.change, sentAt: seq }) }, notices: [] };
    }
    case 'changeSent': {
      const entry = state.pending.get(input.id);
      if (!entry) return { state, notices: [] };
      // What was learned while it waited (the answer to the change before it) is older than its own answer.
      const seq = state.seq + 1;
      return { state: { ...state, seq, pending: new Map(state.pending).set(input.id, { ...entry, sentAt: seq }) }, notices: [] };
    }
    case 'changeConfirmed':
    case 'changeFailed': {
      const entry = state.pending.get(input.id);
      if (!entry) return { state, notices: [] };
      const pending = new Map(state.pending);
      pending.delete(input.id);
      const without: StoreState = { ...state, pending };
      const notFound = input.type === 'changeFailed' && input.error.status === 404;
      if (input.type === 'changeConfirmed' || (notFound && entry.change.kind === 'delete')) {
        // Deleting what is already gone succeeded; anything else confirmed becomes the known state.
        const seq = state.seq + 1;
        const snapshot = snapshotOf(without);
        const applied = applyChange(snapshot, confirmedForm(without, entry), state.localOnly);
        // What was learned about an item after the request was sent (another device's change) is newer
        // than this answer, and so is a count learned since: both stay.
        const newer = applied.touched.filter((id) => (state.items.get(id)?.at ?? -1) > entry.sentAt);
        const touched = applied.touched.filter((id) => !newer.includes(id));
        const answerCount = input.type === 'changeConfirmed' && state.unreadCount.at < entry.sentAt ? input.unreadCount : undefined;
        // A stale answer's count gives way to the change's own effect on the count (the delta path of confirm).
        const confirmed =
          newer.length > 0 ? { ...confirm(without, snapshot, touched, seq, undefined), unreadCount: state.unreadCount } : confirm(without, snapshot, touched, seq, answerCount);
        const localOnly = new Set(state.localOnly);
        for (const id of touched) if (!confirmed.items.has(id)) localOnly.delete(id);
        const next: StoreState = { ...without, seq, ...confirmed, localOnly, bulk: withBulk(without, entry.change, seq) };
        return { state: next, notices: [{ type: 'applied', change: entry.change, touched, unreadCount: visibleSnapshot(next).unreadCount }] };
      }
      // A mark of an item that is gone from view (the user removed it meanwhile, or it was deleted
      // elsewhere) finds nothing: the list already shows what the user wants, no failure to report.
      const mark = entry.change.kind === 'markRead' || entry.change.kind === 'markUnread';
      const outrun = notFound && mark && 'id' in entry.change && !visibleSnapshot(without).items.has(entry.change.id);
      const notices: Notice[] = outrun ? [] : [{ type: 'failed', change: entry.change, error: input.error }];
      if (notFound && 'id' in entry.change) {
        // The server no longer has it: show that instead of restoring an item that cannot be acted on.
        const gone = remoteChange(without, { kind: 'delete', id: entry.change.id }, undefined, false);
        return { state: gone.state, notices: [...notices, ...gone.notices] };
      }
      return { state: { ...without, signedOut: input.error.status === 401 || state.signedOut }, notices };
    }
    case 'remoteChange':
      return remoteChange(state, input.change, input.unreadCount, false);
    case 'localAdded':
      return remoteChange(state, { kind: 'insert', item: input.item }, undefined, true);
    case 'revealed':
      return { state: { ...state, lists: withList(state, input.filter, { oldest: older(state.lists[input.filter].oldest, input.oldest) }) }, notices: [] };
    case 'initialCount': {
      const loaded = state.lists.all.hasLoaded || state.lists.unread.hasLoaded;
      return { state: loaded ? state : { ...state, unreadCount: { value: Math.max(0, Math.round(input.value)), at: -1 } }, notices: [] };
    }
  }
}
