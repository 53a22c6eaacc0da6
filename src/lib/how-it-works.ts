/**
 * The three steps of "how it works" (30 seconds, 2 minutes, the user's timeline). One
 * list for the home page's explainer and the /how-it-works page, so both tell the same story.
 */
export interface HowItWorksStep {
  title: string
  /** How long the step takes, shown as "Time: {time}". */
  time: string
  body: string
}

export const HOW_IT_WORKS_STEPS: readonly HowItWorksStep[] = [
  {
    title: 'Search for an agent',
    time: '30 seconds',
    body: 'Enter an agent name, a ZIP code or a property address. We match it against closed-sale records to find the agents active there.',
  },
  {
    title: 'Review their track record',
    time: '2 minutes',
    body: 'See homes sold, sale-to-list price ratio, days on market and local ranking side by side, so you compare agents on results rather than marketing.',
  },
  {
    title: 'Choose with confidence',
    time: 'your timeline',
    body: 'Request a free agent report, take it to your interviews and pick the agent who fits your home and your goals.',
  },
]
