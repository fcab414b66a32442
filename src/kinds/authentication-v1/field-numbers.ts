import type { FieldNumberTable } from '../define/field-numbers.js';

const P = 'io.k8s.api.authentication.v1.';

export const AUTHENTICATION_V1_FIELD_NUMBERS: FieldNumberTable = {
  [`${P}TokenReview`]: { tags: { metadata: 1, spec: 2, status: 3 } },
  [`${P}TokenReviewSpec`]: { tags: { token: 1, audiences: 2 } },
  [`${P}TokenReviewStatus`]: { tags: { authenticated: 1, user: 2, error: 3, audiences: 4 } },
  [`${P}SelfSubjectReview`]: { tags: { metadata: 1, status: 2 } },
  [`${P}SelfSubjectReviewStatus`]: { tags: { userInfo: 1 } },
  [`${P}UserInfo`]: { tags: { username: 1, uid: 2, groups: 3, extra: 4 } },
};
