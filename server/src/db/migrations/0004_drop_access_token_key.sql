-- Issue 17: access tokens are signed with keys derived from the master key (services/access-token.ts); the
-- signing key a database dump used to carry is removed. Tokens it signed stop verifying (they live 15 minutes).
DELETE FROM "server_secrets" WHERE "name" = 'access_token_hmac_key';
