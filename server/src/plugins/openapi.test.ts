// The OpenAPI document lists every route of issue 5 with its contract schemas (/api/docs/openapi.json)
// and the index page links them (/api/docs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const ROUTES: [method: string, path: string, secured: boolean][] = [
  ['post', '/api/user/', false],
  ['post', '/api/auth/login/', false],
  ['get', '/api/auth/refresh/', false],
  ['post', '/api/auth/logout/', false],
  ['get', '/api/auth/me/', true],
  ['get', '/api/auth/create_websocket_token/', true],
  ['get', '/api/platform/get_available_platforms_dict/', true],
  ['get', '/api/symbol/get_available_symbols_dict/', true],
  ['get', '/api/platform_preferences/get_preferences_by_platform_uuid/{platform_uuid}/', true],
  ['post', '/api/platform_preferences/set_preferences/', true],
  ['get', '/api/trade_preferences/get_preferences/', true],
  ['post', '/api/trade_preferences/set_preferences/', true],
  ['post', '/api/trade_token/create_trade_token/', true],
  ['post', '/api/trade_token/get_trade_token/', true],
  ['post', '/api/trade_token/change_pin_code/', true],
  ['post', '/api/trade_token/revoke_trade_token/', true],
  ['post', '/api/account_balance/get_account_balance/', true],
  ['post', '/api/paper_exchange/create_account/', true],
];

describe('OpenAPI document', () => {
  it('lists every route with its security requirement and answer schema', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    for (const [method, path, secured] of ROUTES) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses['200'] ?? operation.responses['201'], `${method} ${path}`).toBeDefined();
      expect(!!operation.security?.length, `${method} ${path} security`).toBe(secured);
    }
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents the wire names and bounds of the bodies', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' })).json();
    const text = JSON.stringify(document);
    expect(text).toContain('trade_treiling_stop_percent');
    expect(text).toContain('user_trade_token_key');
    expect(text).toContain('platform_dict');
  });

  it('serves an index page at /api/docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('/api/auth/login/');
    expect(response.body).toContain('/api/docs/openapi.json');
  });
});
