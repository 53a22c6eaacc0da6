/**
 * Serves the built site the way the production static host is configured: the Astro output at /, the admin app at
 * /admin/ (any unknown /admin/* path falls back to its index.html, as a single-page app), /agent/* rewritten to the
 * one prebuilt agent-profile shell, blog/404/index.html ('Article Not Found') with status 404 for an unknown /blog/*
 * path, and 404.html with status 404 for anything else.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sirv from 'sirv';

export interface StaticServerOptions {
  port: number;
  /** Returns the current site directory (it can be swapped by a rebuild while the server runs). */
  siteDir: () => string;
  adminDir: string;
  log?: (line: string) => void;
}

/** Starts the server on 127.0.0.1:port; resolves once listening. */
export async function startStaticServer(options: StaticServerOptions): Promise<http.Server> {
  const handlers = new Map<string, ReturnType<typeof sirv>>();
  const handlerFor = (dir: string, single: boolean) => {
    const key = `${dir}:${single}`;
    let handler = handlers.get(key);
    if (!handler) {
      handler = sirv(dir, { dev: true, etag: true, single, extensions: ['html'] });
      handlers.set(key, handler);
    }
    return handler;
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/admin') {
      response.writeHead(301, { Location: '/admin/' }).end();
      return;
    }
    if (url.pathname.startsWith('/admin/')) {
      request.url = request.url!.slice('/admin'.length) || '/';
      handlerFor(options.adminDir, true)(request, response, () => notFound(options.adminDir, response));
      return;
    }
    const siteDir = options.siteDir();
    if (/^\/agent\/[^/]+\/?$/.test(url.pathname) && fs.existsSync(path.join(siteDir, 'agent/index.html'))) {
      request.url = '/agent/' + url.search;
    }
    handlerFor(siteDir, false)(request, response, () => {
      options.log?.(`404 ${url.pathname}`);
      notFound(siteDir, response, url.pathname);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return server;
}

function notFound(dir: string, response: http.ServerResponse, pathname = '/') {
  const blogPage = path.join(dir, 'blog/404/index.html');
  const page = pathname.startsWith('/blog/') && fs.existsSync(blogPage) ? blogPage : path.join(dir, '404.html');
  response.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
  response.end(fs.existsSync(page) ? fs.readFileSync(page) : 'Not found');
}
