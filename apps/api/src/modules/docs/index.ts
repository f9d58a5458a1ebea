/* Documents area: the service (also used by the profile for avatars) and its routes. */

export { createDocsRepo } from './docs.repo';
export { contentDisposition, docsRoutes, sendStored } from './docs.routes';
export { createDocsService, type DocsService, type UploadInput } from './docs.service';
