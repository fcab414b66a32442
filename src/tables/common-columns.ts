import { objectMetaCreationTimestamp, objectMetaName } from './column-descriptions.js';
import { column } from './printer.js';

export const NAME_COLUMN = column('Name', 'string', objectMetaName, { format: 'name' });
export const AGE_COLUMN = column('Age', 'string', objectMetaCreationTimestamp);
export const CONTAINERS_COLUMN = column('Containers', 'string', 'Names of each container in the template.', { wide: true });
export const IMAGES_COLUMN = column('Images', 'string', 'Images referenced by each container in the template.', {
  wide: true,
});
