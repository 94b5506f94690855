// The OpenAPI document of every route, generated from the contracts/ zod schemas (DESIGN.md "contracts"):
// JSON at /api/docs/openapi.json and a plain index page at /api/docs. Register before the routes.
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function indexPage(document: { info: { title: string; version: string }; paths?: object }): string {
  const rows: string[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods as Record<string, Operation>)) {
      const auth = operation.security?.length ? 'bearer' : '';
      rows.push(
        `<tr><td>${method.toUpperCase()}</td><td><code>${escapeHtml(path)}</code></td>` +
          `<td>${escapeHtml(operation.summary ?? '')}</td><td>${auth}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)} API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}td,th{padding:.25rem .75rem;text-align:left}</style></head>
<body><h1>${escapeHtml(document.info.title)} API ${escapeHtml(document.info.version)}</h1>
<p>Machine-readable document: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a> (OpenAPI 3).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Auth</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></body></html>`;
}

export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Signaldesk',
          version: '1.0.6',
          description: 'Answers are { "result": … }; errors are { "detail": "…" } (DESIGN.md).',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    app.get('/api/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    app.get('/api/docs', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        // Its own policy: the page's one inline <style> and nothing else (plugins/security.ts is the SPA's).
        .header(
          'Content-Security-Policy',
          "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        )
        .send(indexPage(app.swagger())),
    );
  },
  { name: 'openapi' },
);
