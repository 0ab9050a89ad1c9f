/**
 * The progress frame's JSON text, written from a fixed template instead of by `JSON.stringify`: one frame per
 * accepted fix is most of what a stream sends. The text is byte for byte what `JSON.stringify(frame)` gives for
 * the frames the session makes (`progressFrame` in navigation-session-actor.ts, its `progress` from
 * `sessionProgressOf` in session-machine.ts): same keys, same order, numbers as JavaScript prints them (a
 * non-finite one as `null`), strings escaped by `JSON.stringify`. progress-frame-text.test.ts compares the two on
 * generated frames, and the stream replay test on a recorded drive. A change to either object literal must change
 * the template with it.
 *
 * Why: `JSON.stringify` looks up every key of three objects per frame; the template knows them, and the texts that
 * repeat from frame to frame (the session id, the next maneuver's instruction and alert) are escaped once per
 * stream rather than once per frame.
 */
import type { FeedFrame } from '../../services/navigation/navigation-sessions.js';

export type ProgressFeedFrame = Extract<FeedFrame, { type: 'progress' }>;

function numberText(value: number | null): string {
  // JSON.stringify writes a finite number as String() does (-0 as 0) and anything else as null
  return typeof value === 'number' && Number.isFinite(value) ? '' + value : 'null';
}

/** Remembers the JSON text of the last string it was given: the same string comes back frame after frame. */
class RepeatedText {
  private source: string | undefined;
  private text = '';

  of(value: string): string {
    if (value !== this.source) {
      this.source = value;
      this.text = JSON.stringify(value);
    }
    return this.text;
  }
}

/** Writes progress frames for one stream (it keeps the escaped texts that repeat on that stream). */
export class ProgressFrameWriter {
  private readonly sessionId = new RepeatedText();
  private readonly status = new RepeatedText();
  private readonly instruction = new RepeatedText();
  private readonly verbalAlert = new RepeatedText();

  /** `JSON.stringify(frame)`, for a frame of the session's progress shape. */
  text(frame: ProgressFeedFrame): string {
    const progress = frame.progress;
    let text =
      '{"type":"progress","fixSeq":' +
      numberText(frame.fixSeq) +
      ',"sessionId":' +
      this.sessionId.of(frame.sessionId) +
      ',"status":' +
      this.status.of(frame.status) +
      ',"maneuverIndex":' +
      numberText(frame.maneuverIndex) +
      ',"eventSeq":' +
      numberText(frame.eventSeq) +
      ',"etaSeconds":' +
      numberText(frame.etaSeconds) +
      ',"distanceRemainingMeters":' +
      numberText(frame.distanceRemainingMeters) +
      ',"durationRemainingSeconds":' +
      numberText(frame.durationRemainingSeconds) +
      ',"progress":';
    if (progress === null) return text + 'null}';
    text +=
      '{"offRoute":' +
      progress.offRoute +
      ',"arrived":' +
      progress.arrived +
      ',"shapeIndex":' +
      numberText(progress.shapeIndex) +
      ',"maneuverIndex":' +
      numberText(progress.maneuverIndex) +
      ',"snapped":{"lat":' +
      numberText(progress.snapped.lat) +
      ',"lng":' +
      numberText(progress.snapped.lng) +
      '},"distanceToRouteMeters":' +
      numberText(progress.distanceToRouteMeters) +
      ',"distanceRemainingMeters":' +
      numberText(progress.distanceRemainingMeters) +
      ',"durationRemainingSeconds":' +
      numberText(progress.durationRemainingSeconds) +
      ',"distanceToNextManeuverMeters":' +
      numberText(progress.distanceToNextManeuverMeters) +
      ',"nextManeuver":';
    const next = progress.nextManeuver;
    text +=
      next === null
        ? 'null'
        : '{"index":' +
          numberText(next.index) +
          ',"type":' +
          numberText(next.type) +
          ',"instruction":' +
          this.instruction.of(next.instruction) +
          ',"verbalAlert":' +
          this.verbalAlert.of(next.verbalAlert) +
          ',"cumulativeMeters":' +
          numberText(next.cumulativeMeters) +
          ',"lat":' +
          numberText(next.lat) +
          ',"lng":' +
          numberText(next.lng) +
          '}';
    return text + ',"progressFraction":' + numberText(progress.progressFraction) + '}}';
  }
}
