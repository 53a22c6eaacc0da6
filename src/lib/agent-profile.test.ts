import { describe, expect, it } from 'vitest'

import { agentIdFromPath } from './agent-profile'

describe('agentIdFromPath', () => {
  it('reads the uuid of /agent/<id> with or without a trailing slash, lower-cased', () => {
    expect(agentIdFromPath('/agent/0470C4EB-A005-4D2B-884B-021D83AD7775')).toBe('0470c4eb-a005-4d2b-884b-021d83ad7775')
    expect(agentIdFromPath('/agent/0470c4eb-a005-4d2b-884b-021d83ad7775/')).toBe('0470c4eb-a005-4d2b-884b-021d83ad7775')
  })

  it('is null for anything that is not one uuid, including a malformed %-escape', () => {
    expect(agentIdFromPath('/agent/not-a-uuid')).toBeNull()
    expect(agentIdFromPath('/agent/%E0%A4%A')).toBeNull()
    expect(agentIdFromPath('/agent/0470c4eb-a005-4d2b-884b-021d83ad7775/extra')).toBeNull()
    expect(agentIdFromPath('/agents/02139')).toBeNull()
  })
})
