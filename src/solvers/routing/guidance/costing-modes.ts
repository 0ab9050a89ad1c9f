/** What each costing means for guidance: its access bit in the pack, and Valhalla's `travel_mode`/`travel_type`. */
import { TravelMode } from '../../../datapack/pack-layout.js';
import type { TravelModeName } from './narrative/phrase-input.js';
import type { Costing } from '../../../domain/costing.js';

export interface CostingMode {
  /** The `graph.edgeAccess` bit of the mode. */
  accessBit: number;
  mode: TravelModeName;
  type: string;
}

export const COSTING_MODES: Record<Costing, CostingMode> = {
  auto: { accessBit: TravelMode.car, mode: 'drive', type: 'car' },
  taxi: { accessBit: TravelMode.taxi, mode: 'drive', type: 'taxi' },
  bus: { accessBit: TravelMode.bus, mode: 'drive', type: 'bus' },
  truck: { accessBit: TravelMode.truck, mode: 'drive', type: 'truck' },
  motor_scooter: { accessBit: TravelMode.motorScooter, mode: 'drive', type: 'motor_scooter' },
  bicycle: { accessBit: TravelMode.bicycle, mode: 'bicycle', type: 'hybrid' },
  pedestrian: { accessBit: TravelMode.foot, mode: 'pedestrian', type: 'foot' },
  wheelchair: { accessBit: TravelMode.wheelchair, mode: 'pedestrian', type: 'wheelchair' },
};

/** The costing's guidance modes; unknown names fall back to `auto`. */
export function costingMode(costing: Costing): CostingMode {
  return COSTING_MODES[costing] ?? COSTING_MODES.auto;
}
