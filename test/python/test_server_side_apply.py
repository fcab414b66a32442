"""Server-side apply through CoreV1Api with the apply content type: create, managedFields, conflicts and force (R10)."""

import json

from kubernetes import client
from kubernetes.client.rest import ApiException

from cascade_support import NamespacedTest, unique

APPLY = "application/apply-patch+yaml"


class ApplyApiClient(client.ApiClient):
    """python3-kubernetes 22 picks the patch content type from a fixed list; apply needs it chosen (and a str body)."""

    def select_header_content_type(self, content_types, *args, **kwargs):
        return APPLY


class ServerSideApplyTest(NamespacedTest):
    namespace_prefix = "py-ssa"

    def setUp(self):
        self.applier = client.CoreV1Api(ApplyApiClient())

    def apply(self, name, data, manager, **kwargs):
        body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}
        return self.applier.patch_namespaced_config_map(name, self.ns, json.dumps(body), field_manager=manager, **kwargs)

    def test_apply_conflict_and_force(self):
        name = unique("cm")
        created = self.apply(name, {"a": "1"}, "py-a")
        self.assertEqual(created.data, {"a": "1"})
        [entry] = created.metadata.managed_fields
        self.assertEqual((entry.manager, entry.operation, entry.api_version), ("py-a", "Apply", "v1"))
        self.assertEqual(entry.fields_v1, {"f:data": {"f:a": {}}})

        with self.assertRaises(ApiException) as caught:
            self.apply(name, {"a": "2"}, "py-b")
        body = self.assertStatus(caught.exception, 409, "Conflict")
        self.assertEqual(body["message"], 'Apply failed with 1 conflict: conflict with "py-a": .data.a')
        self.assertEqual(body["details"]["causes"], [{"reason": "FieldManagerConflict", "message": 'conflict with "py-a"', "field": ".data.a"}])

        forced = self.apply(name, {"a": "2"}, "py-b", force=True)
        self.assertEqual(forced.data, {"a": "2"})
        self.assertEqual([e.manager for e in forced.metadata.managed_fields], ["py-b"])

    def test_apply_needs_a_field_manager(self):
        name = unique("cm")
        body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}}
        with self.assertRaises(ApiException) as caught:
            self.applier.patch_namespaced_config_map(name, self.ns, json.dumps(body))
        body = self.assertStatus(caught.exception, 422, "Invalid")
        self.assertEqual(body["message"], 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch')
