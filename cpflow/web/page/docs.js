// The API's documentation page: Swagger UI (from the fastapi-offline package) on the server's OpenAPI schema.
// A file rather than an inline script, so that the page runs under the server's Content-Security-Policy.
"use strict";

SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
