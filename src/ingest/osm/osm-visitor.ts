/**
 * What a reader hands to the ingest. Callbacks instead of entity objects:
 * a country file has tens of millions of untagged nodes, and allocating an
 * object for each would dominate the run time.
 */
export type OsmTags = Record<string, string>;

/**
 * A new, empty tag record without a prototype: a tag key such as `constructor`
 * or `__proto__` is then an ordinary key, and (V8) every such record shares
 * one hidden class in dictionary mode, so the many `tags.key` lookups of the
 * ingest stay cached instead of missing across thousands of object shapes.
 */
export function newTags(): OsmTags {
  return Object.create(null) as OsmTags;
}

export const enum MemberType {
  Node = 0,
  Way = 1,
  Relation = 2,
}

export interface OsmMember {
  type: MemberType;
  ref: number;
  role: string;
}

export interface OsmVisitor {
  /** `tags` is null for a node without tags (most of them). */
  node?(id: number, lat: number, lon: number, tags: OsmTags | null): void;
  /** `refs` is valid during the call only (readers reuse its memory). */
  way?(id: number, refs: Float64Array, tags: OsmTags): void;
  relation?(id: number, members: readonly OsmMember[], tags: OsmTags): void;
}

/** Which entity kinds a pass wants; readers skip (and for PBF, do not decode) the rest. */
export interface OsmPassKinds {
  nodes: boolean;
  ways: boolean;
  relations: boolean;
}

export function kindsOf(visitor: OsmVisitor): OsmPassKinds {
  return { nodes: !!visitor.node, ways: !!visitor.way, relations: !!visitor.relation };
}
