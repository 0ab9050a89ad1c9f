export interface RosterProblem {
  numDrivers: number;
  numDays: number;
  shiftsPerDay: number;
  /** demand[day][shift]: drivers needed on that shift. */
  demand: readonly (readonly number[])[];
  /** Most shifts any driver works over the horizon. */
  maxShiftsPerDriver?: number;
  /** Days off each driver must have over the horizon. */
  minRestDays?: number;
  /** [driver, day]: the driver cannot work that day. */
  forbidden?: readonly (readonly [number, number])[];
}

export interface RosterShift {
  driver: number;
  day: number;
  shift: number;
}

export interface RosterUnmet {
  day: number;
  shift: number;
  missing: number;
}

export interface RosterResult {
  feasible: boolean;
  shifts: RosterShift[];
  /** Shifts per driver. */
  perDriver: number[];
  /** The busiest driver's shifts (proven minimal when feasible); null when infeasible. */
  peakLoad: number | null;
  /** When infeasible: the demand no assignment can cover, and why. */
  unmet: RosterUnmet[];
  reasons: string[];
}
