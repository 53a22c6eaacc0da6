/**
 * schema.org JSON-LD of the agent pages. Typed with schema-dts (Google's generated schema.org typings), so a property
 * or type that schema.org does not define fails the type check; the page test parses the JSON-LD from the built HTML.
 */
import type { Place, RealEstateAgent, WithContext } from 'schema-dts'

import type { AgentProfile } from './agent-profile'

/**
 * A `RealEstateAgent` for one agent page: name, url, brokerage (parentOrganization), area served (primary ZIP as a
 * Place with its PostalAddress, plus the service areas), contact and photo. aggregateRating only for agents whose data does not come
 * from the demo generator (its ratings are synthetic, so claiming them would not be honest).
 * @param canonicalUrl absolute URL of the page.
 */
export function agentJsonLd(profile: AgentProfile, canonicalUrl: string): WithContext<RealEstateAgent> {
  const { agent, synthetic } = profile
  const areas: (Place | string)[] = [
    ...(agent.primary_zip_code
      ? [
          {
            '@type': 'Place' as const,
            name: `ZIP ${agent.primary_zip_code}`,
            address: {
              '@type': 'PostalAddress' as const,
              postalCode: agent.primary_zip_code,
              ...(agent.city ? { addressLocality: agent.city } : {}),
              ...(agent.state ? { addressRegion: agent.state } : {}),
              addressCountry: 'US',
            },
          },
        ]
      : []),
    ...agent.service_areas.filter((area) => area !== agent.primary_zip_code),
  ]
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateAgent',
    '@id': canonicalUrl,
    name: agent.name,
    url: canonicalUrl,
    ...(agent.brokerage ? { parentOrganization: { '@type': 'Organization', name: agent.brokerage } } : {}),
    ...(areas.length > 0 ? { areaServed: areas } : {}),
    ...(agent.city || agent.state
      ? {
          address: {
            '@type': 'PostalAddress',
            ...(agent.city ? { addressLocality: agent.city } : {}),
            ...(agent.state ? { addressRegion: agent.state } : {}),
            ...(agent.zip_code ? { postalCode: agent.zip_code } : {}),
            addressCountry: 'US',
          },
        }
      : {}),
    // the contact the agent lets the profile show
    ...(agent.phone && !agent.hide_phone ? { telephone: agent.phone } : {}),
    ...(agent.email && !agent.hide_email ? { email: agent.email } : {}),
    ...(agent.photo_url ? { image: agent.photo_url } : {}),
    ...(!synthetic && agent.rating !== null && agent.review_count > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: Number(agent.rating),
            reviewCount: agent.review_count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  }
}
