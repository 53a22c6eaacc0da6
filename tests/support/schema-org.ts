/**
 * Offline validation of JSON-LD against the schema.org vocabulary itself (the RDF schema.org publishes, as shipped by
 * @zazuko/rdf-vocabularies), not against typings: every `@type` must be a schema.org class, every property a
 * schema.org property whose `schema:domainIncludes` names the node's class or one of its ancestors (rdfs:subClassOf),
 * and every value must fit the property's `schema:rangeIncludes` (a nested node's class or an ancestor of it; a
 * string, number or boolean needs a data type such as Text, URL, Number or Integer in the range).
 */
import schemaDataset from '@zazuko/rdf-vocabularies/datasets/schema'

const SCHEMA = 'http://schema.org/'
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type'
const RDFS_CLASS = 'http://www.w3.org/2000/01/rdf-schema#Class'
const RDFS_SUBCLASS = 'http://www.w3.org/2000/01/rdf-schema#subClassOf'
const RDF_PROPERTY = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#Property'

interface Term {
  termType: string
  value: string
}
interface Vocabulary {
  classes: Set<string>
  parents: Map<string, string[]>
  properties: Set<string>
  domains: Map<string, string[]>
  ranges: Map<string, string[]>
}

let vocabulary: Vocabulary | undefined

/** The schema.org classes, properties and their domains and ranges (local names, e.g. 'RealEstateAgent'). */
export function schemaOrgVocabulary(): Vocabulary {
  if (vocabulary) return vocabulary
  const factory = {
    namedNode: (value: string): Term => ({ termType: 'NamedNode', value }),
    literal: (value: string): Term => ({ termType: 'Literal', value }),
    quad: (subject: Term, predicate: Term, object: Term) => ({ subject, predicate, object }),
  }
  const quads = schemaDataset(factory)
  const local = (term: Term) => (term.value.startsWith(SCHEMA) ? term.value.slice(SCHEMA.length) : null)
  const add = (map: Map<string, string[]>, key: string, value: string) => map.set(key, [...(map.get(key) ?? []), value])
  const built: Vocabulary = {
    classes: new Set(),
    parents: new Map(),
    properties: new Set(),
    domains: new Map(),
    ranges: new Map(),
  }
  for (const { subject, predicate, object } of quads) {
    const name = local(subject)
    if (!name) continue
    if (predicate.value === RDF_TYPE && object.value === RDFS_CLASS) built.classes.add(name)
    else if (predicate.value === RDF_TYPE && object.value === RDF_PROPERTY) built.properties.add(name)
    else if (predicate.value === RDFS_SUBCLASS && local(object)) add(built.parents, name, local(object)!)
    else if (predicate.value === `${SCHEMA}domainIncludes` && local(object)) add(built.domains, name, local(object)!)
    else if (predicate.value === `${SCHEMA}rangeIncludes` && local(object)) add(built.ranges, name, local(object)!)
  }
  if (!built.classes.has('Thing') || !built.properties.has('name'))
    throw new Error('The schema.org vocabulary did not load (no Thing or name)')
  vocabulary = built
  return built
}

/** `type` and every class it inherits from. */
function ancestors(type: string, vocab: Vocabulary): Set<string> {
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    for (const parent of vocab.parents.get(name) ?? []) visit(parent)
  }
  visit(type)
  return seen
}

/** Data types a JSON primitive can stand for. */
const PRIMITIVE_RANGES: Record<string, string[]> = {
  string: ['Text', 'URL', 'Date', 'DateTime', 'Time'],
  number: ['Number', 'Integer', 'Float'],
  boolean: ['Boolean'],
}

/**
 * Every violation of the vocabulary in a JSON-LD node (with its nested nodes), as 'path: message' lines; empty when
 * it is valid. `@context` must be https://schema.org (or http).
 */
export function schemaOrgErrors(node: unknown, at = '$'): string[] {
  const vocab = schemaOrgVocabulary()
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [`${at}: not a JSON-LD node`]
  const record = node as Record<string, unknown>
  const errors: string[] = []
  const context = record['@context']
  if (context !== undefined && context !== 'https://schema.org' && context !== 'http://schema.org')
    errors.push(`${at}: @context ${JSON.stringify(context)} is not schema.org`)
  const type = record['@type']
  if (typeof type !== 'string') return [...errors, `${at}: @type is missing`]
  if (!vocab.classes.has(type)) return [...errors, `${at}: @type ${type} is not a schema.org class`]
  const lineage = ancestors(type, vocab)
  for (const [property, value] of Object.entries(record)) {
    if (property.startsWith('@')) continue
    if (!vocab.properties.has(property)) {
      errors.push(`${at}.${property}: ${property} is not a schema.org property`)
      continue
    }
    const domains = vocab.domains.get(property) ?? []
    if (!domains.some((domain) => lineage.has(domain))) {
      errors.push(`${at}.${property}: ${property} does not apply to ${type} (domain: ${domains.join(', ')})`)
      continue
    }
    const ranges = vocab.ranges.get(property) ?? []
    const values = Array.isArray(value) ? value : [value]
    values.forEach((item, index) => {
      const where = Array.isArray(value) ? `${at}.${property}[${index}]` : `${at}.${property}`
      if (typeof item === 'object' && item !== null) {
        const nested = (item as Record<string, unknown>)['@type']
        if (
          typeof nested === 'string' &&
          vocab.classes.has(nested) &&
          !ranges.some((range) => ancestors(nested, vocab).has(range))
        ) {
          errors.push(`${where}: a ${nested} is not in the range of ${property} (${ranges.join(', ')})`)
        }
        errors.push(...schemaOrgErrors(item, where))
      } else {
        const allowed = PRIMITIVE_RANGES[typeof item] ?? []
        const fits = ranges.some((range) => allowed.some((dataType) => ancestors(range, vocab).has(dataType)))
        if (!fits) errors.push(`${where}: a ${typeof item} is not in the range of ${property} (${ranges.join(', ')})`)
      }
    })
  }
  return errors
}
