import type { NotificationContent, RenderableNotification } from '@org/notifications';

/** What the "Send a notification" form sends: stored (`database`) and pushed live (`broadcast`). */
export class DemoNotification implements RenderableNotification {
  readonly type = 'DemoNotification';
  constructor(private readonly content: NotificationContent) {}

  via(): readonly string[] {
    return ['database', 'broadcast'];
  }

  toDatabase(): NotificationContent {
    return this.content;
  }
}
