/** A page of the app: renders into the side panel; `leave` stops what it started (streams, timers). */
export interface View {
  render(panel: HTMLElement): void;
  leave?(): void;
}
