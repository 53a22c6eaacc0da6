-- Demo content for local development and previews: blog categories and a dozen posts.
-- Safe to run repeatedly: every insert skips rows whose slug already exists.
-- Agents and properties come from the import script, users from the start script, so neither is seeded here.
-- Figures in the articles are rules of thumb and are labelled as such; none is presented as market data.

insert into public.blog_categories (name, slug, description) values
  ('Market Analysis', 'market-analysis',
   'How to read the numbers behind a housing market: inventory, days on market, sale-to-list ratios and what they mean for your next move.'),
  ('Buying Guides', 'buying-guides',
   'Step-by-step help for home buyers, from choosing an agent and getting pre-approved to writing an offer and getting to closing.'),
  ('Selling Tips', 'selling-tips',
   'Practical advice for sellers on pricing, preparing, marketing and negotiating so a home sells on good terms.'),
  ('Agent Insights', 'agent-insights',
   'How to evaluate, compare and work with real estate agents using their track record rather than their marketing.'),
  ('Home Financing', 'home-financing',
   'Mortgages, pre-approval, closing costs and the paperwork in between, explained in plain language.'),
  ('Local Spotlights', 'local-spotlights',
   'What is different about buying and selling in specific US cities and states: local contracts, inspections, taxes and customs.')
on conflict (slug) do nothing;

-- Ten published posts (published_at between June and mid-November 2026) and two drafts.
-- unique_insights is the length of insights; hack_density_score is the editorial 0-10 score the admin shows.

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Months of Inventory: The Number That Shows Who Has the Upper Hand',
  'months-of-inventory-explained',
  'Headlines call the market hot or cold. Months of inventory, read for your own price band and compared year over year, tells you which side has leverage on your street.',
  $html$<p>Headlines about the housing market tend to swing between "red hot" and "cooling fast," but neither tells you much about the street you are shopping on. A better starting point is a simple ratio that agents and economists use to describe the balance between buyers and sellers: months of inventory.</p>
<h2>What months of inventory measures</h2>
<p>Months of inventory answers one question: if no new homes came on the market, how long would it take to sell every home currently for sale at the recent pace of sales? To calculate it, divide the number of active listings by the number of homes that sold in an average recent month. If an area has 300 homes for sale and about 100 close each month, it has roughly three months of inventory.</p>
<p>Because both numbers come from the local multiple listing service, your agent can usually pull them for a specific ZIP code, price band or property type in a few minutes. That matters, because the figure for a whole metro area can hide very different conditions inside it.</p>
<h2>How to interpret the number</h2>
<p>A widely used rule of thumb treats about six months of inventory as a balanced market. Well below that, buyers compete for a limited supply and sellers tend to have leverage; well above it, buyers have more choices and more room to negotiate. Treat those thresholds as a rough guide rather than a law: markets with slower, more seasonal sales can feel balanced at a different level, and a single month's figures can be noisy.</p>
<ul>
<li><strong>Low inventory:</strong> expect multiple offers on well-priced homes, shorter inspection and decision windows, and fewer price reductions.</li>
<li><strong>Balanced:</strong> homes that are priced and presented well sell in a reasonable time; others sit.</li>
<li><strong>High inventory:</strong> buyers can ask for repairs, credits or price cuts, and sellers need sharper pricing.</li>
</ul>
<h2>Slice it by price band</h2>
<p>The most useful version of this number is the one for your price range. It is common for entry-level homes to be scarce while luxury homes in the same city take much longer to sell, or the reverse. Ask your agent for months of inventory in a band around your budget or expected list price, and for the same property type. A condo market and a single-family market can move in opposite directions.</p>
<h2>Pair it with the trend</h2>
<p>A snapshot tells you where the market is; the trend tells you where it is heading. Compare the current figure with the same month last year rather than with last month, since spring and fall patterns can distort month-to-month comparisons. Rising inventory over several months often shows up first as more price reductions and longer days on market, before it appears in median prices.</p>
<h2>Other signals to read alongside it</h2>
<ul>
<li><strong>New listings versus new pending sales:</strong> if pendings consistently outpace new listings, supply is tightening.</li>
<li><strong>Share of listings with a price reduction:</strong> a growing share suggests sellers are testing prices that buyers will not pay.</li>
<li><strong>Sale-to-list ratio:</strong> sales closing at or above list price point to competition; sales well below list point to room to negotiate.</li>
</ul>
<h2>How to use it</h2>
<p>If you are buying, months of inventory helps you decide how aggressive your first offer needs to be and how much to ask for after the inspection. If you are selling, it helps you set expectations for how long the home may take to sell and how much flexibility to build into your price. Either way, ask for the local figure for your segment, look at the year-over-year trend, and read it together with the other signals above before you decide.</p>$html$,
  (select id from public.blog_categories where slug = 'market-analysis'),
  'published',
  'Months of Inventory Explained for Buyers and Sellers',
  'Learn how months of inventory shows whether buyers or sellers have leverage, and how to read it by price band and trend before you make a move.',
  null,
  5.3,
  array[
    'Months of inventory is active listings divided by average monthly sales; ask for it by ZIP code, price band and property type rather than for the whole metro.',
    'Compare the figure with the same month last year, not last month, to avoid seasonal distortion.',
    'A rising share of price reductions often signals a shift before median prices move.'
  ],
  3,
  '2026-06-16 15:00:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Days on Market: What the Number Tells You and What It Hides',
  'days-on-market-what-it-hides',
  'Days on market is easy to read and easy to misread. Learn what the count includes, how relisting can reset it, and how buyers, sellers and agent-shoppers should use it.',
  $html$<p>Days on market is one of the first numbers buyers notice on a listing and one of the first sellers worry about. It is useful, but it is also easy to misread. Here is how to get real information out of it.</p>
<h2>What days on market usually counts</h2>
<p>In most multiple listing services, days on market counts the days a listing has been active, from the date it went on the market until a contract was accepted. Some systems stop the clock when the home goes pending; others count until closing. Real estate portals may show their own "time on site," which can differ from the MLS figure. When you compare homes or agents, make sure you are comparing the same measure.</p>
<h2>Why a low number is not always what it seems</h2>
<p>A listing can be withdrawn and relisted, or cancelled and entered again with a new listing number, and in some systems that resets days on market to zero. Many MLSs also track cumulative days on market, often shown as CDOM, which carries the count across relistings within a set period. If a home shows only a few days on market but has an older price history, ask your agent for the cumulative figure and the full listing history.</p>
<h2>What a long number can mean</h2>
<p>A home that has been on the market much longer than similar homes nearby usually has one of three issues: the price is above what buyers will pay, the condition or presentation is putting buyers off, or something about the location or layout limits the pool of buyers. Sometimes it is simply a listing that launched at a slow time of year. Each explanation leads to a different negotiating approach, so it is worth finding out which applies.</p>
<ul>
<li>Check the price history for reductions and how large they were.</li>
<li>Ask whether the home was under contract before and the deal fell through, and why, if the listing agent will say.</li>
<li>Compare with homes of similar size, age and price that sold nearby in the last few months.</li>
</ul>
<h2>Compare against the local norm, not a national figure</h2>
<p>There is no universal "good" number of days on market. What matters is how a listing compares with the typical time for similar homes in the same area and price range right now. A rule of thumb many agents use: a listing that has stayed active noticeably longer than comparable homes has probably been mispriced or has an issue buyers are reacting to. Ask your agent for the median days on market for the segment, not for the whole city.</p>
<h2>Using it as a buyer</h2>
<p>A long-listed home can be an opportunity. Sellers who have watched weeks pass may be more open to a lower price, seller-paid closing costs or a flexible closing date. Still, do not assume a long time on market means a bargain: confirm the reason first, and make sure your inspection contingency protects you if the reason turns out to be a defect.</p>
<h2>Using it as a seller</h2>
<p>For sellers, the lesson is that the first weeks matter. A listing tends to draw the most attention when it is new, and saved-search alerts go out to buyers at launch. If the home is overpriced at that moment, the attention is wasted, and the growing days-on-market count becomes its own talking point for buyers. Pricing realistically from the start is usually cheaper than a series of reductions later.</p>
<h2>Using it to judge an agent</h2>
<p>An agent's average days on market is worth reading alongside the area average, the price ranges they work in and their sale-to-list ratio. An agent whose listings sell faster than the local norm while still closing near list price is pricing and marketing well. One who sells quickly but well below list price may be underpricing to move homes.</p>$html$,
  (select id from public.blog_categories where slug = 'market-analysis'),
  'published',
  'Days on Market: What It Tells You and What It Hides',
  'What days on market really counts, why relisted homes can show a fresh count, and how buyers, sellers and agent-shoppers should read the number.',
  null,
  7.4,
  array[
    'Ask for cumulative days on market (CDOM), because a withdrawn and relisted home can show a fresh count.',
    'Compare a listing''s days on market with similar homes in the same area and price band, not with a citywide or national figure.',
    'An agent''s fast sales mean more when their sale-to-list ratio is also near or above 100 percent.'
  ],
  3,
  '2026-07-07 14:30:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Choosing a Buyer''s Agent: Questions to Ask Before You Sign',
  'choosing-a-buyers-agent-questions-to-ask',
  'Since 2024 most buyers sign a written agreement before touring homes with an agent. Here is what to negotiate in it and what to ask an agent before you commit.',
  $html$<p>Your buyer's agent will help you decide what to offer on what is likely the largest purchase of your life. It is worth spending an hour or two choosing one carefully, and since rule changes in 2024, that choice comes with paperwork you should read before you tour your first home.</p>
<h2>The written buyer agreement</h2>
<p>Since August 2024, agents who participate in multiple listing services affiliated with the National Association of REALTORS® generally must have a written agreement with a buyer before touring a home with them. The agreement has to state what the agent will be paid, or how that amount is determined, in specific terms, and the agent cannot receive more than that amount from any source. Many states add their own requirements.</p>
<p>These agreements are negotiable. Before you sign, read and ask about:</p>
<ul>
<li><strong>Compensation:</strong> the amount or rate, whether you owe it if the seller does not pay it, and whether you can ask the seller to cover it in your offer.</li>
<li><strong>Term:</strong> how long the agreement lasts. A shorter term, or one limited to a single property or a single tour, lets you try working together first.</li>
<li><strong>Termination:</strong> how either side can end it, and whether you would owe anything for a home you first saw with the agent.</li>
<li><strong>Exclusivity:</strong> whether you can work with other agents at the same time.</li>
</ul>
<h2>Questions about experience</h2>
<ul>
<li>How many buyers have you represented in the last year, and how many in my price range and neighborhoods?</li>
<li>What did those buyers pay relative to list price, and how did you decide what to offer?</li>
<li>Can I speak with two or three recent clients?</li>
</ul>
<p>Recent, local, relevant experience matters more than total career sales. An agent who has closed a dozen deals in your target area this year will know how sellers there respond to offers, which inspectors and lenders are reliable, and which streets have issues that never show up in listing photos.</p>
<h2>Questions about how they work</h2>
<ul>
<li>How quickly can you arrange showings, and who covers for you when you are busy?</li>
<li>How do you prefer to communicate, and how fast do you usually respond?</li>
<li>What happens if you or your brokerage also represent the seller of a home I want to buy?</li>
<li>How do you approach competitive situations: escalation clauses, shortened contingencies, appraisal gaps?</li>
</ul>
<p>The last question is revealing. A good agent explains the trade-offs of each tactic, including the risk to you, rather than pushing you to waive protections to win.</p>
<h2>Check the basics yourself</h2>
<p>Every state has a real estate licensing regulator with a public license lookup. Confirm the agent's license is active and check for disciplinary actions. Then look at their actual sales record: how many homes they helped buy or sell, at what prices, and how their results compare with other agents in the area. Online reviews are useful for understanding communication and responsiveness, but sales data tells you whether they get results.</p>
<h2>Interview more than one</h2>
<p>A common rule of thumb is to talk to at least two or three agents before committing. You will learn something about the local market from each conversation, and the comparison makes it easier to spot the agent who listens to what you want rather than the one who talks the most. Choose the person whose experience fits your price range and area, whose communication style suits you, and whose agreement terms you understand and accept.</p>$html$,
  (select id from public.blog_categories where slug = 'buying-guides'),
  'published',
  'Choosing a Buyer''s Agent: Questions to Ask First',
  'What to negotiate in a written buyer agreement and the questions to ask any buyer''s agent about experience, availability and tactics before you sign.',
  null,
  8.1,
  array[
    'Buyer agreements are negotiable: you can ask for a short term or one limited to a single property before committing.',
    'Recent sales in your price range and neighborhoods matter more than an agent''s total career volume.',
    'Check the agent''s license and disciplinary history with your state''s real estate regulator before signing.'
  ],
  3,
  '2026-07-28 16:00:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Pre-Qualification vs. Pre-Approval: What Sellers Take Seriously',
  'pre-qualification-vs-pre-approval',
  'A pre-qualification is an estimate; a pre-approval is a lender''s conditional commitment based on verified documents. Here is why the difference matters when you make an offer.',
  $html$<p>The terms pre-qualification and pre-approval are often used as if they meant the same thing. They do not, and the difference can decide whether a seller takes your offer seriously.</p>
<h2>Pre-qualification: a quick estimate</h2>
<p>A pre-qualification is an early estimate of how much you might be able to borrow. It is usually based on what you tell the lender about your income, debts and savings, sometimes with a soft credit check that does not affect your score. It is fast and free, and it is a reasonable way to get a ballpark figure before you start browsing. But because little or nothing has been verified, sellers and their agents give it limited weight.</p>
<h2>Pre-approval: verified and conditional</h2>
<p>A pre-approval goes further. The lender pulls your credit and reviews documents, typically including:</p>
<ul>
<li>recent pay stubs and W-2s, or tax returns if you are self-employed;</li>
<li>recent bank and investment account statements;</li>
<li>identification and details of your debts and monthly obligations;</li>
<li>an explanation of any large deposits or gifts toward the down payment.</li>
</ul>
<p>The result is a letter stating the loan amount and type the lender is prepared to offer, subject to conditions such as an acceptable appraisal, a clear title and no material change in your finances. Terminology varies: some lenders offer a stronger "underwritten" pre-approval in which an underwriter reviews your file before you find a home. Ask your lender exactly what level of review their letter reflects.</p>
<h2>Why sellers care</h2>
<p>A seller who accepts your offer takes the home off the market while you arrange financing. If the loan falls through, they lose time and may have to relist. A pre-approval letter shows that a lender has already checked the things most likely to derail a loan, so it reduces that risk. In competitive situations, listing agents often call the lender named on the letter to ask how thoroughly the buyer was reviewed, so your lender's responsiveness matters too.</p>
<h2>Shopping lenders without hurting your credit</h2>
<p>It is worth getting quotes from more than one lender. Credit scoring models generally treat several mortgage inquiries within a short window as a single inquiry, on the assumption that you are shopping for one loan. The window varies by scoring model, commonly somewhere between 14 and 45 days, so do your comparison shopping within about two weeks to be safe. Compare offers using the standard Loan Estimate each lender must give you after you apply.</p>
<h2>Keep the approval intact until closing</h2>
<p>A pre-approval is a snapshot, and lenders typically recheck your credit and employment before closing. Between pre-approval and closing:</p>
<ul>
<li>avoid opening new credit cards or financing a car or furniture;</li>
<li>do not change jobs without talking to your lender first;</li>
<li>keep large deposits documented and avoid moving money between accounts unnecessarily;</li>
<li>keep paying every bill on time.</li>
</ul>
<p>Pre-approval letters also expire, often after a couple of months, so check the date and ask your lender to refresh it if your search runs longer. Finally, remember that the amount you are approved for is the most a lender will lend, not a budget. Decide what monthly payment you are comfortable with, including taxes, insurance and any HOA dues, and shop within that number.</p>$html$,
  (select id from public.blog_categories where slug = 'home-financing'),
  'published',
  'Pre-Qualification vs. Pre-Approval for Home Buyers',
  'Why sellers treat a verified pre-approval differently from a pre-qualification, how to shop lenders without hurting your credit, and how to keep your approval.',
  null,
  6.8,
  array[
    'Credit scoring models usually count several mortgage inquiries in a short shopping window as one, so compare lenders within about two weeks.',
    'Ask your lender what level of review a pre-approval letter reflects; an underwritten pre-approval carries more weight with sellers.',
    'The approved amount is a ceiling, not a budget: size your search to a monthly payment that includes taxes, insurance and HOA dues.'
  ],
  3,
  '2026-08-11 15:15:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Pricing Your Home Right From Day One',
  'pricing-your-home-right-from-day-one',
  'The list price shapes how fast a home sells and for how much. Here is how to build a price from recent sales, use search brackets, and plan for a slow start before you list.',
  $html$<p>Of all the decisions a seller makes, the list price has the most influence on how quickly a home sells and for how much. Here is how to arrive at a price that attracts buyers without leaving money on the table.</p>
<h2>Start with recent closed sales</h2>
<p>A sound price starts with a comparative market analysis, or CMA: a review of similar homes that sold recently near yours. The most useful comparables are close by, similar in size, age, condition and lot, and sold within the last few months. Closed sales show what buyers actually paid. Pending sales show where the market is heading, though their final prices are not known yet. Active listings are your competition, not evidence of value: they show what other sellers hope to get.</p>
<h2>Adjust honestly for differences</h2>
<p>No comparable is identical. An updated kitchen, an extra bathroom, a busy road or a smaller lot all move value up or down. Ask your agent to walk you through the adjustments they made and why. Be wary of a recommendation that seems designed to win your listing rather than to sell your home: a number well above the comparables, with little explanation, can cost you more time than it earns.</p>
<h2>Automated estimates are a starting point only</h2>
<p>Online valuation tools are built from public records and listing data. They cannot see your renovated bathroom or the condition of your roof, and their accuracy varies from area to area. Use them as one input, not as the answer.</p>
<h2>Why the first weeks matter</h2>
<p>A new listing usually gets its biggest wave of attention in its first days on the market, when it appears as new on search sites and goes out in saved-search alerts to buyers who have been waiting for a home like yours. If the price is too high at that moment, many of the most motivated buyers look, decide it is not worth it and move on. Later reductions bring some back, but by then the listing may carry a long days-on-market count and a price history that invites lower offers.</p>
<h2>Think about search price brackets</h2>
<p>Buyers search within price ranges, and many set limits at round numbers. A home listed just above a common cut-off, for example slightly over $500,000, will not appear for buyers whose search tops out at $500,000. Ask your agent whether pricing just under a bracket boundary would put your home in front of more buyers without giving up meaningful value.</p>
<h2>Consider the market you are selling in</h2>
<ul>
<li>In a market with few homes for sale, pricing at or slightly below the comparables can draw several buyers and competing offers.</li>
<li>In a slower market, the best-priced and best-presented homes sell and others sit. Price for the competition you actually have.</li>
<li>Seasonal patterns matter in many areas. If you are listing in a slower season, expect fewer buyers and price accordingly.</li>
</ul>
<h2>Set a plan before you list</h2>
<p>Agree with your agent in advance on what you will do if the response is weak: how many showings and how much feedback you expect in the first couple of weeks, and what price adjustment you will make if they do not materialize. Making that decision before listing keeps emotion out of it and avoids the slow drift of small reductions that many stale listings go through.</p>$html$,
  (select id from public.blog_categories where slug = 'selling-tips'),
  'published',
  'How to Price Your Home Right From Day One',
  'Build a list price from recent closed sales, use buyers'' search brackets to your advantage, and agree on a plan for a slow start before you list.',
  null,
  7.8,
  array[
    'Active listings are your competition, not evidence of value; price from recent closed sales and adjust honestly for differences.',
    'Listing just above a round-number search limit hides the home from buyers whose search stops at that number.',
    'Agree on a price-adjustment trigger with your agent before listing so a weak launch does not turn into months of small cuts.'
  ],
  3,
  '2026-08-25 14:00:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Buying in Austin, TX: How the Texas Option Period Works',
  'austin-texas-option-period-explained',
  'Texas contracts give buyers an unrestricted right to terminate during the option period, if the fee and the deadlines are handled correctly. Here is how to use it well in Austin.',
  $html$<p>If you are buying a home in Austin, or anywhere in Texas, your contract will probably work a little differently from what friends in other states describe. Most Texas residential sales use contract forms promulgated by the Texas Real Estate Commission (TREC), and one of their most important features for buyers is the termination option, usually called the option period.</p>
<h2>What the option period is</h2>
<p>In exchange for an option fee paid to the seller, the buyer gets an unrestricted right to terminate the contract for any reason during a negotiated number of days. That differs from a typical inspection contingency elsewhere, which lets a buyer back out or renegotiate based on inspection findings. In Texas, you do not need a reason: if you terminate properly within the option period, you get your earnest money back. The option fee itself is generally not refunded.</p>
<h2>The details that trip buyers up</h2>
<ul>
<li><strong>Deadlines are strict.</strong> The option fee must be delivered within the time the contract specifies. If it is not, the buyer does not get the termination option at all.</li>
<li><strong>The clock runs in calendar days</strong> from the contract's effective date, and the forms set a specific time of day for the deadline. Confirm the exact deadline in your contract rather than counting from memory.</li>
<li><strong>Notice must be in writing</strong> and delivered as the contract requires. A phone call to the listing agent is not a termination.</li>
<li><strong>Whether the fee is credited</strong> toward the price at closing is a choice made in the contract. Check which box was marked.</li>
</ul>
<h2>Using the option period well</h2>
<p>The option period is when you do your due diligence, so plan it before you sign. Book a general home inspector as soon as your offer is accepted, and line up specialists if the general inspection raises questions. In central Texas, common follow-ups include:</p>
<ul>
<li>a foundation evaluation by a structural engineer if the inspector notes cracks, sticking doors or uneven floors, since many area homes sit on clay soils that shrink and swell with moisture;</li>
<li>an HVAC evaluation, since air conditioning works hard for much of the year;</li>
<li>a sewer line camera inspection for older homes with mature trees;</li>
<li>a look at trees close to the house and at drainage around the foundation.</li>
</ul>
<p>If you want repairs or a price reduction, negotiate them before the option period ends and get the agreement in writing as an amendment. Once the option period expires, you lose the right to walk away for any reason, and your earnest money is at greater risk.</p>
<h2>Negotiating the option terms</h2>
<p>The option fee and the number of days are both negotiable. In competitive situations, buyers sometimes offer a larger fee or a shorter period to make an offer stand out. That can work, but a period too short to finish your inspections defeats its purpose. Talk with your agent about what is realistic given local inspector availability.</p>
<h2>After closing: property taxes and the homestead exemption</h2>
<p>Texas has no state income tax, and local governments rely heavily on property taxes, so budget for them carefully and look up the current rates for the specific address. If the home will be your principal residence, apply for the residence homestead exemption with the appraisal district of the county the home is in, such as the Travis Central Appraisal District for most Austin addresses. The exemption reduces the taxable value of your home and also limits how much that value can rise from one year to the next.</p>$html$,
  (select id from public.blog_categories where slug = 'local-spotlights'),
  'published',
  'Buying in Austin, TX: The Texas Option Period',
  'How the Texas option period works for Austin buyers: the fee, strict deadlines, written notice, which inspections to fit in, and the homestead exemption.',
  'Austin, TX',
  8.4,
  array[
    'In Texas the option period lets you terminate for any reason, but only if the option fee is delivered on time and written notice is given before the deadline.',
    'Book inspectors before the contract is signed so every specialist report arrives inside the option period.',
    'File for the residence homestead exemption with your county appraisal district; it also limits yearly increases in taxable value.'
  ],
  3,
  '2026-09-15 15:30:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Closing Costs Explained: What to Expect and What You Can Negotiate',
  'closing-costs-explained',
  'Closing costs catch many first-time buyers off guard. Here is what they include, the two federal disclosure documents that protect you, and where you can save.',
  $html$<p>Closing costs surprise many first-time buyers, who budget carefully for the down payment and then learn they need thousands of dollars more to finish the purchase. A little preparation removes the surprise and can lower the bill.</p>
<h2>How much to expect</h2>
<p>A common rule of thumb is that buyers' closing costs run roughly 2% to 5% of the purchase price, but the real figure depends heavily on your state, your county, your loan and what the seller agrees to pay. Your lender's Loan Estimate gives you an itemized figure for your situation early in the process, which is far more useful than any rule of thumb.</p>
<h2>What the costs are</h2>
<ul>
<li><strong>Lender charges:</strong> origination or underwriting fees, and discount points if you choose to pay upfront to lower your rate.</li>
<li><strong>Third-party services:</strong> appraisal, credit report, flood certification, a survey where required, and pest or other inspections.</li>
<li><strong>Title and settlement:</strong> the title search, the lender's title insurance policy, an optional owner's policy, and the fee of the title company, escrow company or attorney that handles the closing.</li>
<li><strong>Government fees:</strong> recording fees and, in many places, transfer taxes. Who pays transfer taxes varies by state and local custom, and it can be negotiated.</li>
<li><strong>Prepaid items and escrow deposits:</strong> interest from closing to the end of the month, the first year of homeowners insurance, and an initial deposit into the escrow account that will pay future property taxes and insurance.</li>
</ul>
<p>Prepaid items are not really fees: they are costs of owning the home paid in advance. They still have to be covered at closing, so include them in your budget.</p>
<h2>Two documents protect you</h2>
<p>For most mortgages, federal rules require the lender to send a Loan Estimate within three business days of receiving your application, and a Closing Disclosure at least three business days before closing. Compare the two line by line. Some charges may not increase at all from the Loan Estimate and others only within set limits, so ask your lender to explain any difference.</p>
<h2>Where you can save</h2>
<ul>
<li><strong>Compare lenders.</strong> Get Loan Estimates from two or three lenders on the same day and compare the lender charges and the rate together, not the rate alone.</li>
<li><strong>Shop the services you are allowed to shop for.</strong> The Loan Estimate lists services you can shop for; for these, you can choose your own provider instead of the lender's suggestion.</li>
<li><strong>Ask for seller concessions.</strong> In many markets buyers negotiate for the seller to pay part of the closing costs. Loan programs cap how much a seller can contribute, so check the limit for your loan with your lender.</li>
<li><strong>Time the closing.</strong> Closing near the end of the month reduces prepaid interest at the table, though it does not change the interest you pay over the life of the loan, and end-of-month dates can be busy.</li>
<li><strong>Ask about assistance.</strong> State and local housing finance agencies offer closing cost and down payment programs, often for first-time buyers within income limits.</li>
</ul>
<h2>Protect the money on its way to closing</h2>
<p>Wire fraud targets home buyers because large sums move on predictable dates. Criminals send convincing emails with changed wiring instructions. Before wiring any money, call the title or escrow company using a phone number you found independently, not one from the email, and confirm the instructions. Never act on a last-minute email saying the account details have changed.</p>$html$,
  (select id from public.blog_categories where slug = 'home-financing'),
  'published',
  'Closing Costs Explained: What to Expect and Negotiate',
  'What buyers'' closing costs include, how the Loan Estimate and Closing Disclosure protect you, and practical ways to lower the bill at closing.',
  null,
  7.1,
  array[
    'Compare the Loan Estimate with the Closing Disclosure line by line; some charges are not allowed to rise at all.',
    'You can choose your own providers for the services the Loan Estimate lists as ones you can shop for.',
    'Confirm wiring instructions by phone using a number you found yourself, never one from an email.'
  ],
  3,
  '2026-10-01 13:45:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'How to Compare Real Estate Agents Using Their Sales Record',
  'how-to-compare-real-estate-agents',
  'Sale-to-list ratio, days on market, price range, market share and recent sales each tell part of an agent''s story. Here is how to read them together without being misled.',
  $html$<p>Most people choose an agent through a referral or a yard sign. A better approach is to look at what agents have actually done: how many homes they have sold, at what prices, how quickly and for how much relative to the asking price. Here is how to read those numbers without being misled.</p>
<h2>Sale-to-list ratio</h2>
<p>The sale-to-list ratio is the final sale price divided by the list price, shown as a percentage. A ratio of 98% means a home listed at $400,000 sold for $392,000. For a listing agent, a ratio consistently near or above the local average suggests they price accurately and negotiate well.</p>
<p>Read it in context. A very high ratio in a competitive market can reflect a strategy of listing below expected value to attract multiple offers, so the ratio says as much about the pricing approach as about negotiating skill. Compare an agent's ratio with the average for the same area and period rather than with a fixed target.</p>
<h2>Days on market</h2>
<p>An agent whose listings sell faster than similar homes nearby is usually pricing and marketing effectively. Read days on market together with the sale-to-list ratio: fast sales near list price are a strong sign, while fast sales well below list price may mean homes are being underpriced to move quickly.</p>
<h2>Price range</h2>
<p>Check that the agent regularly works in your price range. Marketing a high-end home, with its smaller pool of buyers, is different from selling an entry-level condo that many buyers compete for. An agent whose recent sales cluster around your price has current comparables in mind and a network of buyers and agents active in that segment.</p>
<h2>Volume, market share and ranking</h2>
<p>Total sales, market share and local ranking show how active an agent is. Volume brings experience and local knowledge, but it does not guarantee personal attention: high-volume agents often work with teams, so ask who will actually handle your showings, negotiation and paperwork. A newer agent with fewer sales but strong results and more availability can be the better fit.</p>
<h2>Recent sales and sample size</h2>
<p>Look at the list of recent sales, not only the averages. Are they in your neighborhoods? Are they recent, or mostly from several years ago? And how many are there? An average sale-to-list ratio based on three sales says little; one based on thirty says much more. Averages also hide variety, so scan for outliers in both directions.</p>
<h2>Listing side versus buying side</h2>
<p>Some agents mostly represent sellers, others mostly buyers. If you are selling, their listing-side results matter most; if you are buying, ask how their buyers fared in competitive situations and how often their offers were accepted.</p>
<h2>Reviews and ratings</h2>
<p>Reviews tell you what working with the agent is like: responsiveness, honesty, how they handled problems. Read the written comments rather than only the star rating, and give more weight to detailed, recent reviews. A rating built on a handful of reviews is less reliable than one built on many.</p>
<h2>Put it together</h2>
<ul>
<li>Shortlist two or three agents whose recent sales match your area and price range.</li>
<li>Compare their sale-to-list ratios and days on market with the local averages, not only with each other.</li>
<li>Verify each license with your state's real estate regulator.</li>
<li>Interview each one and ask them to explain the story behind two or three of their recent sales.</li>
</ul>
<p>The best agent for you is the one whose track record matches your situation and who can explain clearly how they would price, market and negotiate for your home.</p>$html$,
  (select id from public.blog_categories where slug = 'agent-insights'),
  'published',
  'How to Compare Real Estate Agents by Their Sales Record',
  'Read sale-to-list ratio, days on market, price range, market share and recent sales together to find the agent whose record fits your home.',
  null,
  9.2,
  array[
    'A high sale-to-list ratio can reflect a strategy of underpricing to draw multiple offers, so read it against the local average.',
    'Fast sales are a strong sign only when the sale-to-list ratio is also near or above list.',
    'An average built on three sales says little; check how many recent sales sit behind each figure.',
    'High-volume agents often work in teams, so ask who will actually handle your sale.'
  ],
  4,
  '2026-10-20 15:00:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Buying a Home in Phoenix, AZ: What to Check Beyond the Usual Inspection',
  'phoenix-home-buying-inspection-checklist',
  'Desert heat is hard on cooling systems, roofs and pools. Here is what Phoenix-area buyers should look at closely before the inspection period ends.',
  $html$<p>Buying in the Phoenix area follows the same steps as anywhere else, but the desert climate changes what deserves a closer look. Long, very hot summers put heavy demands on cooling systems, roofs and pools. Here is what to focus on during your inspection period.</p>
<h2>Cooling systems come first</h2>
<p>Air conditioning is not optional in a Phoenix summer, and cooling systems run for long stretches of the year. A general home inspector will check whether the system operates, but consider a separate evaluation by a licensed HVAC contractor, particularly for older systems. Ask the seller for the age of each unit and any service records. Knowing whether a system is near the end of its life lets you budget for a replacement or negotiate for it.</p>
<ul>
<li>Check the age and condition of every unit; larger homes often have more than one.</li>
<li>Have the ductwork in the attic looked at, since extreme attic heat can degrade connections and insulation.</li>
<li>Ask whether the home heats with a heat pump or a gas furnace in the winter months.</li>
</ul>
<h2>Tile roofs: look under the tiles</h2>
<p>Concrete and clay tile roofs are common in the area, and the tiles themselves can last a long time. The underlayment beneath them is what keeps water out, and sun and heat wear it down well before the tiles. A roof can look fine from the street while the underlayment needs replacing. Ask a roofer to evaluate it, and ask the seller about past roof work. Flat roofs with foam or other coatings also need periodic recoating, so ask when that was last done.</p>
<h2>Pools need their own inspection</h2>
<p>Many Phoenix-area homes have pools. General inspectors may only do a limited check, so a pool specialist can assess the pump, filter, heater, plumbing, surface and any leaks. Pool barriers are also regulated: Arizona and many cities have rules on fencing and gates around residential pools, and buyers of homes with pools must receive a state pool safety notice. If you have young children or plan to, confirm the barrier meets current local requirements.</p>
<h2>Termites and other pests</h2>
<p>Subterranean termites are common in Arizona. Ask your agent about a wood-destroying insect inspection; some loans require one, and it is worth doing even when yours does not. Ask the seller whether the home has a termite treatment warranty and whether it transfers to you.</p>
<h2>Solar panels: owned or leased?</h2>
<p>Rooftop solar is common, and how the panels are held matters. If they are owned outright, they usually convey with the home. If they are leased or covered by a power purchase agreement, you will need to qualify for and take over the agreement, and its terms affect your monthly costs. Ask for the paperwork early, because transfers can take time.</p>
<h2>Read the HOA documents</h2>
<p>Many homes in the Phoenix metro are in communities with homeowners associations. Before your review period ends, read the CC&amp;Rs, rules, budget and recent meeting minutes. Look for rules on parking, rentals, exterior changes and landscaping, the size of the reserve fund, and any planned special assessments.</p>
<h2>Plan around the heat</h2>
<p>In summer, schedule inspections early in the day, when attics and roofs are safer to examine, and confirm the cooling is working at your final walkthrough. Summer moves are common here; they are simply easier when you know what to check.</p>$html$,
  (select id from public.blog_categories where slug = 'local-spotlights'),
  'published',
  'Buying in Phoenix, AZ: What to Inspect Closely',
  'Phoenix buyers: how to check cooling systems, tile roof underlayment, pools, termites, leased solar panels and HOA documents before your inspection period ends.',
  'Phoenix, AZ',
  7.6,
  array[
    'Tile underlayment wears out long before the tiles, so have a roofer check beneath them even if the roof looks fine from the street.',
    'Order a separate pool inspection; general inspectors often check pools only briefly.',
    'Leased solar panels must be taken over by the buyer, so request the agreement early in escrow.'
  ],
  3,
  '2026-11-03 16:00:00+00'
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'How to Write a Strong Offer Without Overpaying',
  'how-to-write-a-strong-offer',
  'Sellers weigh certainty, timing and simplicity as well as price. Here is how to strengthen an offer while keeping the protections that matter most.',
  $html$<p>When several buyers want the same home, price is not the only thing a seller weighs. Certainty, timing and simplicity matter too. Here is how to make your offer more attractive while keeping the protections that matter most to you.</p>
<h2>Lead with strong financing</h2>
<ul>
<li><strong>Submit a fresh pre-approval letter</strong> that matches or exceeds the offer price, from a lender who answers the phone when the listing agent calls.</li>
<li><strong>Show your down payment.</strong> A larger down payment leaves more room if the appraisal comes in low, and some sellers read it as a sign of financial strength.</li>
<li><strong>Understand your loan's appraisal rules.</strong> If the appraisal comes in below the price, the lender lends based on the lower value, and someone has to cover the difference.</li>
</ul>
<h2>Earnest money</h2>
<p>Earnest money is a deposit held in escrow that shows you are serious. A larger deposit can strengthen an offer, but it is also money at risk if you back out outside your contingencies. Ask your agent what is customary locally, since norms vary widely by area, and understand exactly when your deposit stops being refundable.</p>
<h2>Escalation clauses</h2>
<p>An escalation clause says you will beat any competing offer by a set increment, up to a maximum. It can keep you from overpaying when competition turns out to be light. To use one well:</p>
<ul>
<li>set a maximum you are genuinely comfortable paying, and assume you may have to pay it;</li>
<li>require the seller to provide a copy of the competing offer that triggered the escalation;</li>
<li>remember that it reveals your ceiling, and some sellers dislike escalation clauses, so ask the listing agent how offers will be reviewed.</li>
</ul>
<h2>Contingencies: shorten before you waive</h2>
<p>Contingencies let you cancel or renegotiate if something goes wrong with the inspection, financing, appraisal or the sale of your current home. Waiving them makes an offer cleaner and riskier. Shortening them is often a better middle ground:</p>
<ul>
<li>Line up your inspector before writing the offer so you can commit to a short inspection period.</li>
<li>Consider an inspection for information and major defects only, with a promise not to ask for minor repairs.</li>
<li>Instead of waiving the appraisal contingency, offer to cover an appraisal gap up to a set amount you can afford in cash.</li>
</ul>
<p>Waiving the financing contingency means you could lose your deposit if the loan fails, so do it only if you could close with cash or are very confident in your approval.</p>
<h2>Match the seller's timing</h2>
<p>Ask the listing agent what the seller needs. Some want a quick closing; others need time to buy their next home and would value a later closing date or a short rent-back after closing. Meeting those needs can matter as much as a higher price and may cost you little.</p>
<h2>Keep it simple and clean</h2>
<p>Complete every field, sign everything, attach the pre-approval and proof of funds, and avoid unusual terms. An offer that is easy to understand and easy to accept stands out when a seller is comparing several. Many agents now advise against personal letters to sellers, because they can reveal details about a buyer that sellers must not consider under fair housing laws.</p>
<h2>Decide your walk-away number first</h2>
<p>Before writing an offer, review recent comparable sales with your agent and decide the most you will pay, including any appraisal gap you promise to cover. Competitive situations move fast, and having that number in advance keeps the excitement of the moment from deciding for you.</p>$html$,
  (select id from public.blog_categories where slug = 'buying-guides'),
  'published',
  'How to Write a Strong Offer Without Overpaying',
  'Strengthen a home offer with solid financing, smart escalation clauses, shorter contingencies and seller-friendly timing, without giving up key protections.',
  null,
  8.6,
  array[
    'Shortening contingencies is usually safer than waiving them; line up your inspector before you write the offer.',
    'Offer to cover an appraisal gap up to a fixed amount you can pay in cash instead of waiving the appraisal contingency.',
    'An escalation clause should require proof of the competing offer and cap at a price you are genuinely prepared to pay.',
    'Ask the listing agent about the seller''s preferred timing; a rent-back or flexible closing can win without a higher price.'
  ],
  4,
  '2026-11-17 14:00:00+00'
)
on conflict (slug) do nothing;

-- drafts: visible only in admin, so the calendar and editor have something to show

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Is a Pre-Listing Inspection Worth It?',
  'is-a-pre-listing-inspection-worth-it',
  'Inspecting your home before you list can prevent surprises and strengthen your negotiating position, but it also affects what you must disclose. Here is how to decide.',
  $html$<p>Most home inspections happen after a buyer's offer is accepted. A pre-listing inspection flips that order: the seller hires an inspector before the home goes on the market. It can make a sale smoother, but it is not the right move for every seller.</p>
<h2>What you gain</h2>
<ul>
<li><strong>Fewer surprises:</strong> you learn about problems while you still have time to fix them, get quotes or price them in, rather than under a tight deadline during escrow.</li>
<li><strong>Better repair decisions:</strong> you can choose your own contractors and compare prices instead of agreeing to a credit under pressure.</li>
<li><strong>A stronger negotiating position:</strong> when the buyer's inspector finds issues you have already addressed or disclosed, there is less to renegotiate.</li>
<li><strong>Buyer confidence:</strong> sharing a recent inspection report, along with receipts for repairs, can reassure buyers.</li>
</ul>
<h2>What it costs and what it does not replace</h2>
<p>A general inspection usually costs a few hundred dollars, more for large or older homes or for specialist inspections such as sewer lines or roofs. Buyers will almost always still hire their own inspector, because they want someone working for them. Your report will not eliminate their inspection; it reduces the chance that theirs turns up something new.</p>
<h2>The disclosure question</h2>
<p>This is the most important consideration. Most states require sellers to disclose known material defects, and many use a standard disclosure form. Once a pre-listing inspection identifies a problem, you know about it, and you will generally have to disclose it unless you repair it, and in some cases even then. For most sellers this is not a reason to avoid an inspection, since a buyer's inspector is likely to find serious issues anyway. It is a reason to talk with your agent, and if needed a real estate attorney, about your state's disclosure rules before you order one.</p>
<h2>When it makes the most sense</h2>
<ul>
<li>older homes, or homes where major systems such as the roof, HVAC or plumbing are near the end of their expected life;</li>
<li>homes you have not lived in recently, such as inherited properties or former rentals;</li>
<li>competitive markets where a clean, well-documented listing can draw offers with shorter contingencies;</li>
<li>sellers who need certainty about their net proceeds before buying their next home.</li>
</ul>
<h2>When you might skip it</h2>
<p>If the home is newer and well maintained and you already know its condition, or the market is so competitive that buyers rarely ask for repairs, the benefit may be small. The same is true if you plan to sell as-is at a price that already reflects the home's condition.</p>
<h2>Getting the most from it</h2>
<p>Hire a qualified, well-reviewed inspector, licensed where your state requires it. Attend the inspection, and ask which findings are safety issues, which are significant repairs and which are routine maintenance. Fix the safety items and anything likely to alarm a buyer or a lender, and keep receipts and warranties so you can show buyers what was done.</p>$html$,
  (select id from public.blog_categories where slug = 'selling-tips'),
  'draft',
  'Is a Pre-Listing Home Inspection Worth It?',
  'The pros and cons of inspecting your home before you list it, what it costs, how it affects seller disclosure, and when it makes sense to skip it.',
  null,
  5.6,
  array[
    'Once an inspection reveals a defect you generally must disclose it, so check your state''s disclosure rules before ordering one.',
    'Getting repair quotes before listing lets you choose contractors instead of agreeing to a credit under escrow deadlines.'
  ],
  2,
  null
)
on conflict (slug) do nothing;

insert into public.blog_posts
  (title, slug, excerpt, content, category_id, status, meta_title, meta_description, location,
   hack_density_score, insights, unique_insights, published_at)
values (
  'Buying a Condo in Miami, FL: Questions to Ask the Association',
  'miami-condo-buying-association-questions',
  'Florida tightened condominium safety and reserve rules after the Surfside collapse. Here is what Miami condo buyers should ask the association before committing.',
  $html$<p>Condominiums make up a large part of the Miami housing market, and buying one means buying into an association as much as into a unit. Since the 2021 collapse of Champlain Towers South in Surfside, Florida has tightened its rules on condominium building safety and reserves, and those changes can affect what you pay after you move in. Here is what to ask before you commit.</p>
<h2>Milestone inspections and structural reserve studies</h2>
<p>Florida law now requires milestone structural inspections for many condominium and cooperative buildings of three or more stories once they reach a certain age, and structural integrity reserve studies for key components such as the roof, load-bearing structure, fireproofing, plumbing, electrical systems and waterproofing. Associations can no longer waive reserves for those items. The details and deadlines have been amended since the original law, so ask the association for:</p>
<ul>
<li>the most recent milestone inspection report, if one has been required;</li>
<li>the most recent structural integrity reserve study;</li>
<li>the current budget and reserve schedule, and how funded reserves compare with the study's recommendations.</li>
</ul>
<h2>Special assessments</h2>
<p>When reserves are short or repairs are needed, associations may levy special assessments on every owner. Ask whether any assessment has been approved or is being discussed, and read the last year or two of board meeting minutes, which often reveal planned projects long before an assessment is voted on. Your contract should say who pays assessments approved before closing.</p>
<h2>Insurance: the association's and yours</h2>
<p>The association insures the building; you insure your unit's interior and your belongings. Ask for a summary of the master policy, including the windstorm deductible, because a large deductible can be passed on to owners after a hurricane. For your own coverage, get quotes early, since insurance in South Florida can be a significant cost and your lender will require proof of coverage before closing. Standard policies do not cover flood, so check the building's flood zone and whether the association carries flood insurance.</p>
<h2>Financing can depend on the building</h2>
<p>Lenders, and programs such as FHA and VA loans, review the condominium project as well as the buyer. Buildings with low reserves, ongoing litigation, critical repair needs or a high share of investor-owned units can be harder to finance. Ask your lender early whether the building is likely to meet its requirements; a building that does not can limit you to certain loan types or to paying cash.</p>
<h2>Rules that affect daily life</h2>
<ul>
<li>rental restrictions, including minimum lease terms and any waiting period before owners may rent;</li>
<li>pet policies, including size and breed limits;</li>
<li>approval processes for buyers and tenants, and how long they take;</li>
<li>rules on renovations, contractors and working hours.</li>
</ul>
<h2>Use your review period</h2>
<p>Florida gives buyers of resale condominium units a short period after receiving the association's documents in which they can cancel the contract, and standard contract forms address it. Read the documents as soon as they arrive, ask your agent to point out anything unusual, and consider having a real estate attorney review them. The questions above are much easier to answer before closing than after.</p>$html$,
  (select id from public.blog_categories where slug = 'local-spotlights'),
  'draft',
  'Buying a Miami Condo: Questions for the Association',
  'What Miami condo buyers should ask about milestone inspections, reserve studies, special assessments, insurance and financing before they commit.',
  'Miami, FL',
  6.9,
  array[
    'Ask for the latest milestone inspection report and structural integrity reserve study before your document review period ends.',
    'Board meeting minutes often reveal planned repairs, and the special assessments behind them, before any vote.',
    'Check the master policy''s windstorm deductible, because it can be passed on to owners after a hurricane.'
  ],
  3,
  null
)
on conflict (slug) do nothing;
