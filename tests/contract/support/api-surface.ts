// The API surface as the apps themselves describe it, for the contract tests that must cover every endpoint
// (issue 9 items 3, 4): the route table (app.printRoutes) and, for the server, the OpenAPI document that
// plugins/openapi.ts generates from the contracts. A route added later is covered without editing a list.

/** One method and path of a route table; `path` is Fastify's pattern (`/api/trade/x/:trade_uuid/`). */
export interface RouteEntry {
  method: string;
  path: string;
}

interface PrintsRoutes {
  printRoutes(options?: { commonPrefix?: boolean }): string;
}

const TREE_LINE = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/;

/**
 * Every method and path of the app's route table. HEAD is left out: Fastify adds it to every GET and
 * answers it with the GET handler. The tree of printRoutes is one node per line, four columns per level.
 */
export function routeTable(app: PrintsRoutes): RouteEntry[] {
  const prefixes: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = TREE_LINE.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth > 0 ? prefixes[depth - 1] : '') + match[2]!;
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    for (const method of (match[3] ?? '').split(',')) {
      const name = method.trim();
      if (name && name !== 'HEAD') routes.push({ method: name, path });
    }
  }
  return routes;
}

/** A JSON schema of the OpenAPI document, $refs resolved. */
export interface JsonSchema {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  default?: unknown;
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** An endpoint of the server: its route, and what the OpenAPI document says of it (absent when hidden). */
export interface Endpoint extends RouteEntry {
  documented: boolean;
  secured: boolean;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: JsonSchema;
  /** The statuses the document lists for it. */
  statuses: number[];
}

/** `/a/:b/` → `/a/{b}/`; a route registered as a prefix root without its slash finds the slashed entry. */
function documentPathOf(document: OpenApiDocument, path: string): string | undefined {
  const templated = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  if (document.paths[templated]) return templated;
  if (!templated.endsWith('/') && document.paths[`${templated}/`]) return `${templated}/`;
  return undefined;
}

export function resolveSchema(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolveSchema(document, document.components?.schemas?.[name]);
  }
  let resolved: JsonSchema = { ...schema };
  if (schema.allOf) {
    const { allOf, ...rest } = schema;
    resolved = rest;
    for (const part of allOf) resolved = { ...resolveSchema(document, part), ...resolved };
  }
  if (resolved.anyOf) resolved.anyOf = resolved.anyOf.map((part) => resolveSchema(document, part));
  if (resolved.items) resolved.items = resolveSchema(document, resolved.items);
  if (resolved.properties) {
    resolved.properties = Object.fromEntries(
      Object.entries(resolved.properties).map(([name, part]) => [name, resolveSchema(document, part)]),
    );
  }
  if (resolved.additionalProperties && typeof resolved.additionalProperties === 'object') {
    resolved.additionalProperties = resolveSchema(document, resolved.additionalProperties);
  }
  return resolved;
}

/** The server's endpoints: its route table, each joined with its OpenAPI operation. */
export function serverEndpoints(app: PrintsRoutes, document: OpenApiDocument): Endpoint[] {
  return routeTable(app).map((route) => {
    const documentPath = documentPathOf(document, route.path);
    const operation = documentPath ? document.paths[documentPath]?.[route.method.toLowerCase()] : undefined;
    const parameters = (operation?.parameters ?? []).map((parameter) => ({
      ...parameter,
      schema: resolveSchema(document, parameter.schema),
    }));
    const bodySchema = operation?.requestBody?.content?.['application/json']?.schema;
    return {
      ...route,
      documented: !!operation,
      secured: !!operation?.security?.length,
      pathParams: parameters.filter((parameter) => parameter.in === 'path'),
      queryParams: parameters.filter((parameter) => parameter.in === 'query'),
      body: bodySchema ? resolveSchema(document, bodySchema) : undefined,
      statuses: Object.keys(operation?.responses ?? {}).map(Number),
    };
  });
}

/** Route segments every server enumeration must find (SPEC.md §7), so a test cannot pass on an empty list. */
export const KNOWN_SERVER_SEGMENTS = [
  'trade',
  'trade_client',
  'trade_server',
  'trade_token',
  'account_balance',
  'platform_preferences',
  'trade_preferences',
  'analysis',
  'signal',
  'public',
  'auth',
  'user',
  'platform',
  'symbol',
  'paper_exchange',
  'exchange_relay',
  'push',
] as const;

export function segmentOf(path: string): string {
  return path.split('/')[2] ?? '';
}

/** Fills a Fastify pattern's parameters. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => values[name] ?? '');
}

export const label = (route: RouteEntry) => `${route.method} ${route.path}`;
