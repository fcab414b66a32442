"""Server-side apply through the client's own apply call, DynamicClient.server_side_apply: create, managedFields,
conflicts and force (R10)."""

import json

from kubernetes import client, dynamic
from kubernetes.client.rest import ApiException

from cascade_support import NamespacedTest, unique


class ServerSideApplyTest(NamespacedTest):
    namespace_prefix = "py-ssa"

    def setUp(self):
        self.dynamic = dynamic.DynamicClient(client.ApiClient())
        self.configmaps = self.dynamic.resources.get(api_version="v1", kind="ConfigMap")

    def apply(self, name, data, manager, force=None):
        body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}
        # python3-kubernetes 22's REST layer sends only a str body with a non-JSON content type, so the manifest goes
        # serialized, and the name and namespace the call would otherwise read from it are passed too.
        applied = self.dynamic.server_side_apply(
            self.configmaps, body=json.dumps(body), name=name, namespace=self.ns, field_manager=manager, force_conflicts=force
        )
        return applied.to_dict()

    def test_apply_conflict_and_force(self):
        name = unique("cm")
        created = self.apply(name, {"a": "1"}, "py-a")
        self.assertEqual(created["data"], {"a": "1"})
        [entry] = created["metadata"]["managedFields"]
        self.assertEqual((entry["manager"], entry["operation"], entry["apiVersion"]), ("py-a", "Apply", "v1"))
        self.assertEqual(entry["fieldsV1"], {"f:data": {"f:a": {}}})

        with self.assertRaises(ApiException) as caught:
            self.apply(name, {"a": "2"}, "py-b")
        body = self.assertStatus(caught.exception, 409, "Conflict")
        self.assertEqual(body["message"], 'Apply failed with 1 conflict: conflict with "py-a": .data.a')
        self.assertEqual(body["details"]["causes"], [{"reason": "FieldManagerConflict", "message": 'conflict with "py-a"', "field": ".data.a"}])

        forced = self.apply(name, {"a": "2"}, "py-b", force=True)
        self.assertEqual(forced["data"], {"a": "2"})
        self.assertEqual([e["manager"] for e in forced["metadata"]["managedFields"]], ["py-b"])

    def test_apply_needs_a_field_manager(self):
        name = unique("cm")
        with self.assertRaises(ApiException) as caught:
            self.apply(name, {}, None)
        body = self.assertStatus(caught.exception, 422, "Invalid")
        self.assertEqual(body["message"], 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch')
