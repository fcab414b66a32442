import type { FieldNumberTable } from './types.js';

const P = 'io.k8s.api.authentication.v1.';

export const AUTHENTICATION_V1_FIELD_NUMBERS: FieldNumberTable = {
  [`${P}TokenReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}TokenReviewSpec`]: { tags: { token: 1, audiences: 2 } },
  [`${P}TokenReviewStatus`]: { tags: { authenticated: 1, user: 2, error: 3, audiences: 4 } },
  [`${P}SelfSubjectReview`]: { tags: { metadata: 1, status: 2 } },
  [`${P}SelfSubjectReviewStatus`]: { tags: { userInfo: 1 } },
  [`${P}TokenRequest`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}TokenRequestSpec`]: { tags: { audiences: 1, boundObjectRef: 3, expirationSeconds: 4 } },
  [`${P}BoundObjectReference`]: { tags: { kind: 1, apiVersion: 2, name: 3, uid: 4 } },
  [`${P}TokenRequestStatus`]: { tags: { token: 1, expirationTimestamp: 2 } },
  [`${P}UserInfo`]: { tags: { username: 1, uid: 2, groups: 3, extra: 4 } },
};
