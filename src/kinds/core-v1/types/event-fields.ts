import type { KubeObject } from '../../../api/types.js';
import { fieldAt, textAttr } from '../../define/field-selectors.js';

/** The core Event field set; events.k8s.io objects are read through their core spellings. */
export function eventFields(obj: KubeObject, eventsApi: boolean): Record<string, string> {
  const involved = eventsApi ? fieldAt(obj, 'regarding') : fieldAt(obj, 'involvedObject');
  const reportingController = textAttr(fieldAt(obj, 'reportingController'));
  const component = textAttr(fieldAt(obj, eventsApi ? 'deprecatedSource' : 'source', 'component'));
  return {
    'involvedObject.kind': textAttr(fieldAt(involved, 'kind')),
    'involvedObject.namespace': textAttr(fieldAt(involved, 'namespace')),
    'involvedObject.name': textAttr(fieldAt(involved, 'name')),
    'involvedObject.uid': textAttr(fieldAt(involved, 'uid')),
    'involvedObject.apiVersion': textAttr(fieldAt(involved, 'apiVersion')),
    'involvedObject.resourceVersion': textAttr(fieldAt(involved, 'resourceVersion')),
    'involvedObject.fieldPath': textAttr(fieldAt(involved, 'fieldPath')),
    reason: textAttr(fieldAt(obj, 'reason')),
    reportingComponent: reportingController,
    source: component === '' ? reportingController : component,
    type: textAttr(fieldAt(obj, 'type')),
  };
}
