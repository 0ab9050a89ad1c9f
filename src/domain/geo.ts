/** The coordinate fields every request schema shares, at the edge and in the services. */
import { z } from 'zod';

/** WGS84 latitude in degrees. */
export const latitude = z.number().finite().min(-90).max(90);
/** WGS84 longitude in degrees. */
export const longitude = z.number().finite().min(-180).max(180);
/** Compass heading in degrees clockwise from north. */
export const heading = z.number().finite().min(0).max(360);
