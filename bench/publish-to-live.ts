/**
 * `npm run bench:publish`: how long from "Publish" in the admin to the article answering on the public site.
 *
 * On a throwaway stack (own PostgreSQL cluster in a temp dir, free ports, no edge functions) with the local site
 * builder and static server wired exactly as `npm start` wires them, for 50 and then 1,000 published posts:
 * publish a draft through the REST API as an admin (the same update the admin app sends), then poll the article's
 * URL on the served site every 250 ms until it answers 200. Prints, per run: the API update, the webhook reaching
 * the builder (site_builds row queued), the build, and the total publish-to-live time, all in seconds, with the
 * machine and the data size. Figures, never a pass or fail.
 *
 * Options: `-- --runs 2` publishes per size (default 1), `-- --sizes 50,1000` the post counts.
 */
import { createClient } from '@supabase/supabase-js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { adminTarget } from '../scripts/lib/build.ts';
import { configureBuildHook, startSiteBuilder } from '../supabase/local/site-builder.ts';
import { startStaticServer } from '../supabase/local/static-server.ts';
import { startThrowawayStack } from '../supabase/local/throwaway-stack.ts';
import type { Database } from '@shared/database.types.ts';
import { freePort } from '../supabase/local/postgres.ts';

const ArgsSchema = z.object({
  runs: z.coerce.number().int().min(1).max(10).default(1),
  sizes: z
    .string()
    .default('50,1000')
    .transform((value) => value.split(',').map(Number))
    .pipe(z.array(z.number().int().min(1).max(20_000)).min(1)),
});

function parseArgs(argv: string[]) {
  const raw: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const match = /^--(runs|sizes)$/.exec(argv[i]!);
    if (match) raw[match[1]!] = argv[(i += 1)] ?? '';
  }
  const parsed = ArgsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`Bad arguments: ${parsed.error.issues.map((issue) => `--${issue.path.join('.')} ${issue.message}`).join('; ')}`);
  return parsed.data;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const paragraph = (i: number, p: number) =>
  `<p>Benchmark article ${i}, paragraph ${p}: sale-to-list ratio, days on market and months of inventory read for one ZIP code tell a seller more than a national headline. Compare the agent's recent closings in the same price band before signing a listing agreement.</p>`;

async function main() {
  const { runs, sizes } = parseArgs(process.argv.slice(2));
  const sitePort = await freePort();
  const siteUrl = `http://localhost:${sitePort}`;
  console.log('Starting a throwaway stack...');
  const stack = await startThrowawayStack({ prefix: 'agent-insight-bench-publish-', siteUrl, functions: false, seed: false });
  const work = stack.dataDir;
  const keys = { anonKey: stack.anonKey, serviceRoleKey: stack.serviceRoleKey };
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const initialDir = path.join(work, 'site');
  fs.mkdirSync(initialDir);
  const builder = await startSiteBuilder({
    initialDir,
    buildsDir: path.join(work, 'site-builds'),
    buildEnv: { PUBLIC_SUPABASE_URL: stack.apiUrl, PUBLIC_SUPABASE_ANON_KEY: keys.anonKey, SITE_URL: siteUrl },
    supabaseUrl: stack.apiUrl,
    serviceRoleKey: keys.serviceRoleKey,
    // nothing is built yet; the first size's build below makes the site
    initialDirFresh: true,
    log: (line) => {
      if (!line.startsWith("Rebuilding")) console.log(`  [builder] ${line}`);
    },
  });
  const server = await startStaticServer({ port: sitePort, siteDir: () => builder.currentDir(), adminDir: adminTarget.outDir });

  const admin = createClient<Database>(stack.apiUrl, keys.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const email = `bench-admin-${Date.now()}@example.com`;
  const signUp = await admin.auth.signUp({ email, password: 'correct-horse-battery' });
  if (signUp.error) throw new Error(`Could not sign up the bench admin: ${signUp.error.message}`);
  await db.query(`insert into public.user_roles (user_id, role) values ($1, 'admin')`, [signUp.data.user!.id]);
  // the access token was issued before the role; is_admin() reads user_roles per request, so it applies at once

  const results: { size: number; run: number; api: number; webhook: number; build: number; total: number }[] = [];
  let seeded = 0;
  try {
    for (const size of sizes) {
      // seed with the hook off, then one build, so the measured publish starts from a live site of `size` posts
      await configureBuildHook(stack.databaseUrl, { hookUrl: null, secret: null, builder: 'local' });
      if (size > seeded) {
        console.log(`Seeding ${size - seeded} published posts (${size} in all)...`);
        await db.query(
          `insert into public.blog_posts (title, slug, excerpt, content, status, published_at)
           select 'Benchmark article ' || i, 'bench-article-' || i, 'Excerpt of benchmark article ' || i || '.', $3,
                  'published', now() - make_interval(mins => i)
             from generate_series($1::int, $2::int) i`,
          [seeded + 1, size, Array.from({ length: 8 }, (_, p) => paragraph(0, p + 1)).join('\n')],
        );
        seeded = size;
      }
      console.log(`Building the site with ${size} posts...`);
      const buildStarted = Date.now();
      builder.request(`bench: ${size} posts seeded`);
      await builder.idle();
      console.log(`  initial build ${seconds(Date.now() - buildStarted)} s`);
      await configureBuildHook(stack.databaseUrl, { hookUrl: builder.hookUrl, secret: builder.secret, builder: 'local' });

      for (let run = 1; run <= runs; run += 1) {
        const slug = `bench-new-${size}-${run}-${Date.now().toString(36)}`;
        const { rows } = await db.query<{ id: string }>(
          `insert into public.blog_posts (title, slug, content, status) values ($1, $2, $3, 'draft') returning id`,
          [`Newly published ${size}/${run}`, slug, paragraph(size, 1)],
        );
        const url = `${siteUrl}/blog/${slug}`;
        if ((await fetch(url)).status === 200) throw new Error(`${url} answered before publishing`);
        const last = (await db.query<{ last: string }>(`select coalesce(max(id), 0) as last from public.site_builds`)).rows[0]!.last;

        const start = Date.now();
        const { error } = await admin
          .from('blog_posts')
          .update({ status: 'published', published_at: new Date().toISOString() })
          .eq('id', rows[0]!.id)
          .select('id')
          .single();
        if (error) throw new Error(`Publishing through the API failed: ${error.message}`);
        const api = Date.now() - start;
        let webhook = 0;
        for (;;) {
          if (!webhook) {
            const queued = await db.query(`select 1 from public.site_builds where id > $1 and trigger_reason like $2`, [last, `%${slug}%`]);
            if (queued.rowCount) webhook = Date.now() - start;
          }
          if ((await fetch(url)).status === 200) break;
          if (Date.now() - start > 15 * 60_000) throw new Error(`${url} did not answer 200 within 15 minutes`);
          await sleep(250);
        }
        const total = Date.now() - start;
        const { rows: builds } = await db.query<{ ms: number }>(
          `select extract(epoch from finished_at - started_at) * 1000 as ms from public.site_builds
            where trigger_reason like $1 and status = 'succeeded' order by id desc limit 1`,
          [`%${slug}%`],
        );
        results.push({ size, run, api, webhook, build: Number(builds[0]?.ms ?? NaN), total });
        console.log(`  ${size} posts, run ${run}: live after ${seconds(total)} s`);
        await builder.idle();
      }
    }
  } finally {
    await configureBuildHook(stack.databaseUrl, { hookUrl: null, secret: null, builder: 'build_hook' }).catch(() => {});
    await builder.stop();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await db.end();
    await stack.stop();
  }

  const cpus = os.cpus();
  console.log(`
Publish to live (local builder, Astro static build, ${new Date().toISOString()})
Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, load average ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}, Node ${process.version}

| published posts | run | API update (s) | webhook -> builder (s) | build (s) | publish -> 200 (s) |
| --- | --- | --- | --- | --- | --- |
${results.map((r) => `| ${r.size} | ${r.run} | ${(r.api / 1000).toFixed(2)} | ${(r.webhook / 1000).toFixed(2)} | ${seconds(r.build)} | ${seconds(r.total)} |`).join('\n')}`);
}

await main();
