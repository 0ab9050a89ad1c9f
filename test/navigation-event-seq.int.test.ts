/**
 * GET of a session, its event log and its stream agree (docs/reliability.md §5), black-box: fixes jittered around
 * one point of the route of the last Nasr City pair, after one re-plan from that point, leave the new route at
 * once, so every fix re-plans (an off_route and a rerouted event each). Sent as a burst, the fix messages wait in
 * the socket's inbox while GETs are served: a GET answers the session as its commands have been applied so far —
 * never less than what the stream has already delivered — and once the last message is acknowledged, GET, the
 * event log and the stream hold the same events.
 */
import { describe, expect, it } from 'vitest';
import { NASR_CITY_PAIRS, pointAt, walkOf } from '../load-tests/route-walk.js';
import { registerUser } from './support/api-client.js';
import { useServer } from './support/server-fixture.js';
import { connectStream, streamUrl, type Frame } from './support/stream-client.js';

const fixture = useServer();
const api = fixture.api;
const MESSAGES = 40;
const FIXES_PER_MESSAGE = 5;

const eventsOf = (frames: Frame[]) => frames.filter((frame) => frame.type === 'event').map((frame) => frame.event);

describe('navigation session eventSeq', () => {
  it('GET never trails the stream, and GET, the event log and the stream agree once the fixes are acknowledged', async () => {
    const { token } = await registerUser(api, 'event-seq');
    const pair = NASR_CITY_PAIRS[NASR_CITY_PAIRS.length - 1]!;
    const created = await api.post('/navigation/sessions', { origin: { lat: pair[0], lng: pair[1] }, destination: { lat: pair[2], lng: pair[3] } }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sessionId = created.body.sessionId as string;
    const [lat, lng] = pointAt(walkOf(created.body.routeShape as string), 20);
    const readSession = async () => {
      const read = await api.get(`/navigation/sessions/${sessionId}`, token);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      return read.body.eventSeq as number;
    };

    const stream = await connectStream(streamUrl(fixture.server.baseUrl, sessionId, 'since=0'), { authorization: `Bearer ${token}` });
    await stream.waitFor((frame) => frame.type === 'ready');
    // re-planned from that point (no heading), the route leaves the jittered fixes' road: the off-route loop
    const replanned = await api.post('/navigation/recalculate', { sessionId, current: { lat, lng } }, token);
    expect(replanned.status, JSON.stringify(replanned.body)).toBe(201);
    await stream.waitFor((frame) => frame.type === 'event' && frame.event.type === 'rerouted');

    let capturedAt = Date.now() - 3_600_000;
    for (let message = 0; message < MESSAGES; message++) {
      // a metre or so of jitter; capturedAt rises so every fix is accepted
      const fixes = Array.from({ length: FIXES_PER_MESSAGE }, () => {
        capturedAt += 1_000;
        return { lat: lat + (Math.random() - 0.5) * 2e-5, lng: lng + (Math.random() - 0.5) * 2e-5, speed: 0, capturedAt: new Date(capturedAt).toISOString() };
      });
      stream.send({ type: 'fixes', fixes, id: `m${message}` });
    }
    const last = `m${MESSAGES - 1}`;
    const isLastAnswer = (frame: Frame) => frame.id === last;
    // while the messages are queued: each GET answers at least every event the stream delivered before it was sent
    const reads: { streamed: number; eventSeq: number; answered: number }[] = [];
    while (!stream.frames.some(isLastAnswer)) {
      const streamed = eventsOf(stream.frames).length;
      const eventSeq = await readSession();
      reads.push({ streamed, eventSeq, answered: stream.frames.filter((frame) => frame.type === 'ack').length });
      expect(eventSeq).toBeGreaterThanOrEqual(streamed);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lastAnswer = stream.frames.find(isLastAnswer)!;
    expect(lastAnswer.type, JSON.stringify(lastAnswer)).toBe('ack');
    expect(stream.frames.filter((frame) => frame.type === 'error')).toEqual([]);

    // every message answered: the stream has every event (frames go out before the ack that follows them)
    const streamed = eventsOf(stream.frames);
    console.log(JSON.stringify({ events: streamed.length, reads: reads.length, whileQueued: reads.slice(0, 5), lastRead: reads[reads.length - 1] }));
    expect(streamed.length).toBeGreaterThan(MESSAGES); // the loop happened: events on most fixes
    expect(streamed.map((event) => event.seq)).toEqual(streamed.map((_, index) => index + 1));
    expect(lastAnswer.eventSeq).toBe(streamed.length);
    expect(await readSession()).toBe(streamed.length);
    const log = await api.get(`/navigation/sessions/${sessionId}/events?since=0`, token);
    expect(log.body.eventSeq).toBe(streamed.length);
    // the log keeps the newest ~50 events (docs/navigation.md): the stream's last ones, the same
    expect(log.body.events.length).toBeGreaterThan(0);
    expect(log.body.events).toEqual(streamed.slice(-log.body.events.length));
    await stream.close();
  }, 300_000);
});
