// Fields looked up by a name a user gave (a schema's field, a document's member, a filter's
// field). Schemas and documents are plain objects, where `o[name]` also finds
// Object.prototype's members ("toString", "constructor", "valueOf", …): a schema would seem to
// declare them (as functions) and every document to hold them. Only own properties count.

/** `o`'s own property `name`, or undefined when it has none. */
export function ownField<T>(o: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(o, name) ? o[name] : undefined;
}
