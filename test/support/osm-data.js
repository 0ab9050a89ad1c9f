import { fileURLToPath } from 'node:url';
/** The shared public data sets (../shared/data, see its README), and the copies the repo ships under data/. */
export const SHARED_DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
export const REPO_DATA = fileURLToPath(new URL('../../data/', import.meta.url));
export const OSM_FILES = {
    nasrCityPbf: `${SHARED_DATA}osm/egypt_cairo_nasr-city.osm.pbf`,
    nasrCityXmlGz: `${SHARED_DATA}osm/egypt_cairo_nasr-city.osm.xml.gz`,
    monaco: `${SHARED_DATA}osm/osrm_monaco.osm.pbf`,
    andorra: `${SHARED_DATA}osm/graphhopper_andorra.osm.pbf`,
    anNabkXml: `${SHARED_DATA}osm/syria_an-nabk.osm`,
};
export const JORDAN_ADMIN = ['gov', 'dis', 'subdis'].map((name) => `${SHARED_DATA}boundaries/jordan-admin/${name}.geojson`);
//# sourceMappingURL=osm-data.js.map