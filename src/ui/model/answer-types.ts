import type { PropagationPolicy } from '../../api/delete-options.js';
import type { CascadeExplanation } from '../../tools/explain-types.js';
import type { CascadePreview } from '../../tools/preview.js';

/** `/ui-api/explain`: the `cascade explain -o json` document and the CLI's text report of it. */
export interface ExplainAnswer {
  readonly document: CascadeExplanation;
  readonly text: string;
}

/** `/ui-api/preview`: `cascade delete --preview` for each propagation policy. */
export interface PreviewAnswer {
  readonly previews: readonly { readonly policy: PropagationPolicy; readonly document: CascadePreview; readonly text: string }[];
}

/** `/ui-api/whoami`: the user a SelfSubjectReview names for the page's credentials. */
export interface WhoAmIAnswer {
  readonly username: string;
  readonly groups: readonly string[];
}
