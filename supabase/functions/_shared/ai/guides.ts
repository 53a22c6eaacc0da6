/**
 * Evergreen guide templates of the built-in writer (no AI provider): advice for the common guide types of the blog
 * (choosing an agent, offers, pre-approval, closing costs, pricing a home, general buying and selling), picked by
 * the topic's words. They print no figures at all (the figure rule allows small counts up to 10 only); figures come
 * from the fact sheet in writer.ts. Pure data and one classifier; no I/O.
 */

export type GuideType = 'agent-selection' | 'offers' | 'pre-approval' | 'closing-costs' | 'pricing' | 'general'

export interface GuideSection {
  heading: string
  paragraphs: string[]
  /** Actionable steps, each starting with an imperative verb (density.ts ACTION_VERBS). */
  steps: string[]
}

export interface GuideTemplate {
  type: GuideType
  /** What the reader gets, one sentence (excerpt and meta description of a figure-free guide). */
  summary: string
  intro: string
  sections: GuideSection[]
}

/** Topic words per guide type, tested in this order (the first match wins); no match is 'general'. */
const MATCHERS: [GuideType, RegExp][] = [
  ['closing-costs', /\bclosing costs?\b|\bescrow\b|\btitle insurance\b|\bclosing day\b/i],
  ['pre-approval', /\bpre-?approv|\bmortgage|\blender|\bloan\b|\bfinanc|\bcredit score/i],
  ['agent-selection', /\bagents?\b|\brealtors?\b|\bbrokers?\b|\bsale-to-list record\b|\btrack record\b/i],
  ['offers', /\boffers?\b|\bbid(s|ding)?\b|\bnegotiat|\bcontingenc|\bearnest money\b/i],
  ['pricing', /\bpric(e|es|ing)\b|\blist(ing)? price\b|\bsell(ing|ers?)?\b|\bstag(e|ing)\b/i],
]

/** The guide type a topic asks for (see MATCHERS). */
export function guideTypeOf(topic: string): GuideType {
  return MATCHERS.find(([, pattern]) => pattern.test(topic))?.[0] ?? 'general'
}

const GUIDES: Record<GuideType, GuideTemplate> = {
  'agent-selection': {
    type: 'agent-selection',
    summary:
      'How to choose a real estate agent by their record: the figures to ask for, how to compare them and the questions that reveal how an agent works.',
    intro:
      "An agent's closed sales say more than a sales pitch. This guide shows which parts of an agent's record matter, how to read them, and what to ask before you sign.",
    sections: [
      {
        heading: 'Start with the record, not the pitch',
        paragraphs: [
          'Every agent can describe a great process. Fewer can show recent closed sales in your area at a strong price and in a reasonable time. The record is the part you can check.',
          'Two figures carry most of the signal: the sale-to-list ratio (what homes sold for compared with their asking price) and days on market (how long listings took to go under contract).',
        ],
        steps: [
          'Ask each agent for their closed sales in your area over the last year, with list price, sale price and days on market for each.',
          "Compare their average sale-to-list ratio with the area's: an agent who sells above the local norm is pricing and negotiating well.",
          'Check days on market next to price: fast sales at low prices can mean a listing was underpriced.',
        ],
      },
      {
        heading: 'Read sale-to-list ratio the right way',
        paragraphs: [
          'A sale-to-list ratio above list price means buyers competed; below it means sellers gave ground. On its own it can flatter an agent who lists low to spark bidding, so read it together with the price range the agent works in.',
          'Look at how many sales the ratio rests on. A handful of sales can swing on one unusual home; a record with many sales in your price range is a firmer guide.',
        ],
        steps: [
          'Request the ratio for homes like yours: same area, similar price, similar type.',
          'Ask how the agent set the list price on their last few sales and what the first offers were.',
          'Watch for a record built mostly on the other side of the deal if you are selling: buyer-side sales say little about listing skill.',
        ],
      },
      {
        heading: 'Questions to ask in the interview',
        paragraphs: [
          'The interview shows how the agent will work for you: how they price, how they market, and how they handle offers and repairs.',
        ],
        steps: [
          'Ask how they would price your home and which recent sales they used.',
          'Ask what they do in the first week a listing is live and how they report showings and feedback.',
          'Ask how many clients they serve at once and who you will deal with day to day.',
          'Ask for the names of recent clients you may call.',
        ],
      },
      {
        heading: 'Compare agents side by side',
        paragraphs: [
          'Interview at least 3 agents. Put their figures in one table so that the comparison rests on the same measures, over the same period, in the same area.',
        ],
        steps: [
          'Compare agents on AgentInsight by sale-to-list ratio, days on market and recent sales before you call them.',
          "Request a free agent report to see an agent's recent sales next to the market figures.",
          'Choose the agent whose record fits your home and whose plan you understand.',
        ],
      },
      {
        heading: 'Before you sign the listing agreement',
        paragraphs: [
          'A listing agreement sets the commission, the length of the contract and how you can end it. Everything in it is negotiable.',
        ],
        steps: [
          'Read the term and the cancellation clause; ask for a shorter term if you are unsure.',
          'Get the marketing plan and the pricing strategy in writing.',
          "Keep copies of every document and note the agent's promises.",
        ],
      },
    ],
  },
  offers: {
    type: 'offers',
    summary:
      'How to write an offer that wins without overpaying: price, terms and contingencies, and how to negotiate after the first answer.',
    intro:
      'An offer is more than a price. Terms, timing and certainty decide many deals, and a seller reads all of them. This guide walks through an offer from the first look to the signed contract.',
    sections: [
      {
        heading: 'Know the market before you offer',
        paragraphs: [
          'How far above or below asking homes sell in an area tells you how much room there is. In a fast market sellers expect offers at or above list; in a slow one they expect to negotiate.',
        ],
        steps: [
          'Check recent sales of similar homes nearby, not just the asking price.',
          'Ask your agent how long the home has been listed and whether the price has changed.',
          'Get pre-approved first so that your offer shows you can close.',
        ],
      },
      {
        heading: 'Set your price',
        paragraphs: [
          'Your price should rest on what comparable homes sold for and on what the home is worth to you. Decide your ceiling before you see competing offers, when it is easier to stay calm.',
        ],
        steps: [
          'Set a walk-away price before you write the offer.',
          'Consider an escalation clause in a competitive market, with a firm cap.',
          'Avoid round numbers that invite a split-the-difference answer.',
        ],
      },
      {
        heading: 'Use terms to make the offer stronger',
        paragraphs: [
          'Sellers weigh certainty and timing. A clean offer with a flexible closing date can beat a higher price with many conditions.',
        ],
        steps: [
          'Offer a closing date that suits the seller: ask the listing agent what they prefer.',
          'Keep the inspection contingency, but consider a shorter inspection period.',
          'Make a solid earnest money deposit to show you are serious.',
        ],
      },
      {
        heading: 'Contingencies that protect you',
        paragraphs: [
          'Contingencies let you leave the deal if something goes wrong: the inspection, the appraisal, the financing or the sale of your current home. Each one you waive makes the offer stronger and your position riskier.',
        ],
        steps: [
          'Keep the inspection contingency unless you have inspected the home before you offer.',
          'Review the appraisal gap you could cover with cash before you waive the appraisal contingency.',
          'Talk to your lender before you shorten the financing contingency.',
        ],
      },
      {
        heading: 'Negotiate after the first answer',
        paragraphs: [
          'A counteroffer is a good sign: the seller wants to deal. Answer the points that matter most to them and hold on the ones that matter most to you.',
        ],
        steps: [
          'Ask your agent what the seller cares about most: price, timing or certainty.',
          'Trade terms for price where you can, such as a flexible move-out for a lower price.',
          'Put every change in writing before you treat it as agreed.',
        ],
      },
    ],
  },
  'pre-approval': {
    type: 'pre-approval',
    summary:
      'How mortgage pre-approval works, what lenders check and how to get a letter that makes your offer credible.',
    intro:
      'A pre-approval letter tells a seller that a lender has checked your income, debts and credit. It sets your budget and makes your offers credible. This guide covers what to prepare and how to compare lenders.',
    sections: [
      {
        heading: 'Pre-qualified is not pre-approved',
        paragraphs: [
          'A pre-qualification is an estimate from what you tell a lender. A pre-approval rests on documents the lender has checked, and sellers treat it as the stronger of the two.',
        ],
        steps: [
          'Ask each lender which one they are issuing and what they have verified.',
          'Get pre-approved before you tour seriously, so that you know your budget.',
        ],
      },
      {
        heading: 'What to prepare',
        paragraphs: [
          'Lenders verify income, assets, debts and credit. Having the documents ready shortens the process.',
        ],
        steps: [
          'Gather recent pay stubs, tax returns, bank statements and the details of any other debts.',
          'Check your credit report for errors and dispute them before you apply.',
          'Avoid new credit cards or large purchases while you apply.',
        ],
      },
      {
        heading: 'Compare lenders',
        paragraphs: [
          'Rates, fees and service differ between lenders. Several credit checks for the same mortgage within a short period are usually treated as one inquiry by the credit scoring models.',
        ],
        steps: [
          'Request a loan estimate from at least 3 lenders on the same day.',
          'Compare the annual percentage rate and the closing costs, not only the interest rate.',
          'Ask how fast each lender can close and how they communicate during underwriting.',
        ],
      },
      {
        heading: 'Set a budget you can live with',
        paragraphs: [
          'The amount a lender approves is a ceiling, not a target. Your budget should leave room for taxes, insurance, maintenance and savings.',
        ],
        steps: [
          'Budget the full monthly cost: principal, interest, taxes, insurance and any association fees.',
          'Keep cash aside for closing costs, moving and the first repairs.',
        ],
      },
      {
        heading: 'Keep the approval valid until closing',
        paragraphs: [
          'Lenders check again before closing. A new loan, a job change or a missed payment can undo an approval at the last minute.',
        ],
        steps: [
          'Tell your lender at once about any change in income or employment.',
          'Keep paying every bill on time and keep your savings in place until you close.',
        ],
      },
    ],
  },
  'closing-costs': {
    type: 'closing-costs',
    summary: 'What closing costs are, who pays which ones, and how buyers and sellers can lower them.',
    intro:
      'Closing costs are the fees and prepaid items due when a sale closes, on top of the price and the down payment. This guide explains what they cover and where there is room to save.',
    sections: [
      {
        heading: 'What closing costs cover',
        paragraphs: [
          "For buyers they include lender fees, the appraisal, title insurance, recording fees and prepaid taxes and insurance. Sellers usually pay the agents' commissions, transfer taxes in many states and their own title and attorney fees.",
        ],
        steps: [
          'Read the loan estimate line by line as soon as you get it.',
          'Ask your agent which costs are customary for buyers and for sellers where you live.',
        ],
      },
      {
        heading: 'Compare and shop the fees you can',
        paragraphs: [
          'Some fees are fixed by the government; others, such as title services and some lender charges, can be shopped.',
        ],
        steps: [
          'Compare loan estimates from several lenders on the same day.',
          'Request quotes for title services where your lender allows you to choose.',
          'Ask the lender which fees they can lower or waive.',
        ],
      },
      {
        heading: 'Negotiate who pays',
        paragraphs: [
          "Seller concessions (the seller paying part of the buyer's costs) are common when the market favors buyers. In a competitive market they weaken an offer.",
        ],
        steps: [
          'Negotiate seller credits when homes in the area sell below asking.',
          'Use repair findings from the inspection to ask for a credit instead of repairs.',
        ],
      },
      {
        heading: 'Check the closing disclosure',
        paragraphs: [
          'Lenders must send the closing disclosure before closing. It lists the final figures; compare them with the loan estimate.',
        ],
        steps: [
          'Compare the closing disclosure with the loan estimate and ask about every change.',
          'Verify the wiring instructions by phone with your title company before you send money.',
        ],
      },
    ],
  },
  pricing: {
    type: 'pricing',
    summary: 'How to price a home to sell: reading comparable sales, the first weeks on the market and when to adjust.',
    intro:
      'The list price decides who comes to see a home and how quickly offers arrive. Price it from the evidence, not from hope, and the first weeks do most of the work.',
    sections: [
      {
        heading: 'Price from comparable sales',
        paragraphs: [
          'Buyers and appraisers compare your home with similar homes that sold recently nearby. Active listings show your competition; closed sales show what buyers actually paid.',
        ],
        steps: [
          'Review closed sales of similar homes nearby from the last few months.',
          'Compare size, condition, lot and location honestly, and adjust for the differences.',
          'Ask each agent you interview which sales they used and why.',
        ],
      },
      {
        heading: 'Use the first weeks',
        paragraphs: [
          'A new listing gets the most attention in its first weeks. An overpriced home misses that window and often sells for less after price cuts.',
        ],
        steps: [
          'Prepare the home before it goes live: repairs, cleaning, photos and a floor plan.',
          'Price at the market so that the first buyers see value and act.',
          'Track showings and feedback weekly with your agent.',
        ],
      },
      {
        heading: 'Read how the market answers',
        paragraphs: [
          'Many showings and no offers usually means the price is high for the condition. Few showings usually means the price is high for the area.',
        ],
        steps: [
          'Set a date with your agent to review the price if no offer has come.',
          'Make one clear adjustment instead of several small ones.',
        ],
      },
      {
        heading: 'Choose an agent who prices well',
        paragraphs: ["An agent's own sale-to-list ratio and days on market show how well their pricing works."],
        steps: [
          'Compare agents on AgentInsight by sale-to-list ratio and days on market before you choose one.',
          "Request a free agent report to see an agent's recent sales.",
        ],
      },
    ],
  },
  general: {
    type: 'general',
    summary:
      'A practical guide for home buyers and sellers: the steps, the figures worth checking and how to choose the right agent.',
    intro:
      'Buying or selling a home goes better with a plan and a few figures checked early. This guide sets out the steps and what to look at in each.',
    sections: [
      {
        heading: 'Plan the steps',
        paragraphs: [
          'Most moves follow the same order: budget and financing, choosing an agent, searching or preparing the home, the offer, inspections and appraisal, and closing.',
        ],
        steps: [
          'Set your budget and timeline before you talk to agents.',
          'Get pre-approved if you are buying; prepare the home if you are selling.',
        ],
      },
      {
        heading: 'Check the market figures that matter',
        paragraphs: [
          'How fast homes sell and how close to asking they sell tell you how much room there is to negotiate and how quickly you need to act.',
        ],
        steps: [
          'Look at median days on market and the sale-to-list ratio for the area you care about.',
          'Compare recent closed sales, not just asking prices.',
        ],
      },
      {
        heading: 'Choose an agent by their record',
        paragraphs: ["An agent's recent closed sales show how they price, market and negotiate."],
        steps: [
          'Compare agents on AgentInsight by sale-to-list ratio, days on market and recent sales.',
          'Interview at least 3 agents and ask which recent sales they would use to price your home.',
          "Request a free agent report to see an agent's recent sales next to the market figures.",
        ],
      },
      {
        heading: 'Protect yourself in the contract',
        paragraphs: [
          'Inspection, appraisal and financing contingencies decide when you can walk away. Each one you waive shifts risk to you.',
        ],
        steps: [
          'Read every contingency and its deadline before you sign.',
          'Keep copies of every document and confirm changes in writing.',
        ],
      },
    ],
  },
}

/** The template of a guide type. */
export function guideTemplate(type: GuideType): GuideTemplate {
  return GUIDES[type]
}
