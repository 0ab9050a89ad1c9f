/**
 * The live fleet stream's protocol in one paragraph, for the OpenAPI
 * description; the client messages are validated by `fleetClientMessageSchema`
 * (edge/schemas/fleet.ts), the plan frame's type is `PlanFrame`
 * (actors/fleet/fleet-protocol.ts). Full description: docs/optimization.md.
 */
export const FLEET_STREAM_SUMMARY = `WebSocket: wss://<host>/api/v1/optimize/fleets/{fleetId}/stream[?since=<planVersion>]
Authenticate in the handshake (x-api-key or Authorization: Bearer header, or api_key / access_token query parameter), or with the first message {"type":"auth","apiKey":"…"} / {"type":"auth","token":"…"} within 10 s (WS_AUTH_TIMEOUT_MS). Only the fleet's creator (same key or user) may connect.
Client → server (each with an optional "id" echoed in the answer): {"type":"position",vehicleId,lat,lng,at?} · {"type":"add_stops",stops:[{id?,lat,lng,demand?,serviceSeconds?}…≤100]} · {"type":"cancel_stop",stopId} · {"type":"complete_stop",stopId,vehicleId?} · {"type":"reoptimize"} · {"type":"ping"}.
Server → client: {"type":"ready",fleetId,resumedFrom,fleet} once (fleet includes the current plan); {"type":"plan",fleetId,planVersion,previousPlanVersion,plan,diff:{added,removed,moved:[{stopId,fromVehicleId,toVehicleId}],changedVehicleIds},resync?} for every new plan, in planVersion order (with since below the current version, the current plan first with resync:true and diff null; a since past it is refused, 400); {"type":"ack",id,changeSeq,planVersion,replanning} per event message; {"type":"error",statusCode,code,message,details,requestId,id?}; {"type":"pong"}.
Re-plans are debounced (0.5 s after the last change, at most 3 s while changes keep coming) and warm-started from the current plan; completed stops stay locked on their vehicle. Each event message counts against the key's quota like a POST …/events call. Close codes: 4401 not authenticated (or not within the time allowed), 4403 forbidden, 4404 unknown fleet, 4408 too slow (resume with since), 4429 too many open streams (per user, API key or client address; error frame TOO_MANY_STREAMS), 1009 a message over 64 KiB (after a 413 error frame).`;
