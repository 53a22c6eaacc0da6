/**
 * The schema.org dataset of @zazuko/rdf-vocabularies: its package.json `exports` hide the shipped .d.ts from
 * TypeScript's resolver, so this declares the one entry tests/support/schema-org.ts uses (a function from an RDF/JS
 * data factory to the vocabulary's quads).
 */
declare module '@zazuko/rdf-vocabularies/datasets/schema' {
  interface Term {
    termType: string
    value: string
  }
  const dataset: <Q>(factory: {
    namedNode(value: string): Term
    literal(value: string): Term
    quad(subject: Term, predicate: Term, object: Term): Q
  }) => Q[]
  export default dataset
}
