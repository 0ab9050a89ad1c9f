import type { Migration } from '../migrate.js';
import { accountsMigration } from './001-accounts.js';
import { developerPortalMigration } from './002-developer-portal.js';
import { notificationsMigration } from './003-notifications.js';
import { userDataMigration } from './004-user-data.js';
import { identitiesMigration } from './005-identities.js';
import { navigationMigration } from './006-navigation.js';
import { webhookDeliveriesMigration } from './007-webhook-deliveries.js';
import { navigationHotUpdatesMigration } from './008-navigation-hot-updates.js';
import { optimizationJobsMigration } from './009-optimization-jobs.js';
import { fleetsMigration } from './010-fleets.js';
import { keySuspensionMigration } from './011-key-suspension.js';
import { hijriMonthStartsMigration } from './012-hijri-month-starts.js';
import { placesMigration } from './013-places.js';
import { placeContentMigration } from './014-place-content.js';
import { placeSearchMigration } from './015-place-search.js';
import { transitMigration } from './016-transit.js';
import { trafficMigration } from './017-traffic.js';
import { evMigration } from './018-ev.js';
import { itinerariesMigration } from './019-itineraries.js';
import { incidentsFeedbackMigration } from './021-incidents-feedback.js';
import { billingAndAdsMigration } from './024-billing-and-ads.js';
import { assistantTurnsMigration } from './023-assistant-turns.js';
import { commutePushGeofencesMigration } from './022-commute-push-geofences.js';
import { logisticsZonesMigration } from './025-logistics-zones.js';
import { placeGinWithoutPendingListMigration } from './026-place-gin-without-pending-list.js';
import { placeSearchNamesMigration } from './027-place-search-names.js';
import { trafficFixDataMigration } from './028-traffic-fix-data.js';
import { placeSearchChangesMigration } from './029-place-search-changes.js';
import { placeLowerNamesMigration } from './030-place-lower-names.js';

/**
 * The product's schema history, applied in order at start. Append only: a
 * released migration is never edited; fix forward with a new version.
 */
export const migrations: readonly Migration[] = [accountsMigration, developerPortalMigration, notificationsMigration, userDataMigration, identitiesMigration, navigationMigration, webhookDeliveriesMigration, navigationHotUpdatesMigration, optimizationJobsMigration, fleetsMigration, keySuspensionMigration, hijriMonthStartsMigration, placesMigration, placeContentMigration, placeSearchMigration, transitMigration, trafficMigration, evMigration, itinerariesMigration, incidentsFeedbackMigration, commutePushGeofencesMigration, assistantTurnsMigration, billingAndAdsMigration, logisticsZonesMigration, placeGinWithoutPendingListMigration, placeSearchNamesMigration, trafficFixDataMigration, placeSearchChangesMigration, placeLowerNamesMigration];
