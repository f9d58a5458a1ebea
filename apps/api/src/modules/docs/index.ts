/* Documents area: the service (also used by the profile for avatars) and its routes. */

export { contentDisposition, docsRoutes } from './docs.routes';
export { createDocsService, type DocsService, sniffImage, type UploadInput } from './docs.service';
