"""CRUD through CoreV1Api: typed models, optimistic concurrency, patches, dry runs, and ApiException carrying the Status."""

import base64
import datetime

from kubernetes import client
from kubernetes.client.rest import ApiException

from cascade_support import NamespacedTest, unique


class ConfigMapCrudTest(NamespacedTest):
    namespace_prefix = "py-crud"

    def test_create_read_replace_patch_delete(self):
        name = unique("cm")
        created = self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": name, "labels": {"app": "crud"}}, "data": {"a": "1"}})
        self.assertIsInstance(created, client.V1ConfigMap)
        self.assertEqual(created.metadata.namespace, self.ns)
        self.assertTrue(created.metadata.uid)
        self.assertTrue(created.metadata.resource_version)
        # The timestamp is RFC 3339 that the client turns into an aware datetime.
        self.assertIsInstance(created.metadata.creation_timestamp, datetime.datetime)
        self.assertIsNotNone(created.metadata.creation_timestamp.tzinfo)

        read = self.core.read_namespaced_config_map(name, self.ns)
        self.assertEqual(read.metadata.uid, created.metadata.uid)
        self.assertEqual(read.data, {"a": "1"})

        read.data["b"] = "2"
        replaced = self.core.replace_namespaced_config_map(name, self.ns, read)
        self.assertEqual(replaced.data, {"a": "1", "b": "2"})
        self.assertNotEqual(replaced.metadata.resource_version, created.metadata.resource_version)

        # A dict body goes out as a strategic merge patch, a list as a JSON patch.
        merged = self.core.patch_namespaced_config_map(name, self.ns, {"data": {"c": "3"}})
        self.assertEqual(merged.data, {"a": "1", "b": "2", "c": "3"})
        patched = self.core.patch_namespaced_config_map(name, self.ns, [{"op": "remove", "path": "/data/a"}])
        self.assertEqual(patched.data, {"b": "2", "c": "3"})

        status = self.core.delete_namespaced_config_map(name, self.ns)
        self.assertEqual(status.status, "Success")
        self.assertEqual(status.details.name, name)
        self.assertEqual(status.details.uid, created.metadata.uid)
        with self.assertRaises(ApiException) as caught:
            self.core.read_namespaced_config_map(name, self.ns)
        body = self.assertStatus(caught.exception, 404, "NotFound")
        self.assertEqual(body["message"], 'configmaps "%s" not found' % name)
        self.assertEqual(body["details"], {"name": name, "kind": "configmaps"})

    def test_stale_update_is_a_conflict(self):
        name = unique("cm")
        created = self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": name}, "data": {"v": "1"}})
        first = self.core.read_namespaced_config_map(name, self.ns)
        second = self.core.read_namespaced_config_map(name, self.ns)
        first.data["v"] = "2"
        self.core.replace_namespaced_config_map(name, self.ns, first)
        second.data["v"] = "3"
        with self.assertRaises(ApiException) as caught:
            self.core.replace_namespaced_config_map(name, self.ns, second)
        body = self.assertStatus(caught.exception, 409, "Conflict")
        self.assertEqual(caught.exception.reason, "Conflict")
        self.assertIn("application/json", caught.exception.headers["Content-Type"])
        self.assertEqual(
            body["message"],
            'Operation cannot be fulfilled on configmaps "%s": the object has been modified; '
            "please apply your changes to the latest version and try again" % name,
        )
        self.assertEqual(body["details"], {"name": name, "kind": "configmaps"})
        self.assertEqual(self.core.read_namespaced_config_map(name, self.ns).data, {"v": "2"})
        self.assertEqual(created.metadata.name, name)

    def test_create_errors(self):
        name = unique("cm")
        self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": name}})
        with self.assertRaises(ApiException) as caught:
            self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": name}})
        body = self.assertStatus(caught.exception, 409, "AlreadyExists")
        self.assertEqual(body["message"], 'configmaps "%s" already exists' % name)

        with self.assertRaises(ApiException) as caught:
            self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": "Bad_Name"}})
        body = self.assertStatus(caught.exception, 422, "Invalid")
        self.assertEqual(body["details"]["kind"], "ConfigMap")
        self.assertEqual(body["details"]["name"], "Bad_Name")
        self.assertEqual([c["field"] for c in body["details"]["causes"]], ["metadata.name"])
        self.assertTrue(body["message"].startswith('ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"'))

        missing = unique("missing")
        with self.assertRaises(ApiException) as caught:
            self.core.create_namespaced_config_map(missing, {"metadata": {"name": "x"}})
        body = self.assertStatus(caught.exception, 404, "NotFound")
        self.assertEqual(body["message"], 'namespaces "%s" not found' % missing)

    def test_generate_name_dry_run_and_delete_preconditions(self):
        generated = self.core.create_namespaced_config_map(self.ns, {"metadata": {"generateName": "gen-"}})
        self.assertRegex(generated.metadata.name, r"^gen-[a-z0-9]{5}$")

        dry = self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": "dry"}}, dry_run="All")
        self.assertEqual(dry.metadata.name, "dry")
        with self.assertRaises(ApiException) as caught:
            self.core.read_namespaced_config_map("dry", self.ns)
        self.assertStatus(caught.exception, 404, "NotFound")

        wrong_uid = "00000000-0000-0000-0000-000000000000"
        options = client.V1DeleteOptions(preconditions=client.V1Preconditions(uid=wrong_uid))
        with self.assertRaises(ApiException) as caught:
            self.core.delete_namespaced_config_map(generated.metadata.name, self.ns, body=options)
        body = self.assertStatus(caught.exception, 409, "Conflict")
        # R2.6: the early precondition check names the kind, not the resource.
        self.assertEqual(
            body["message"],
            'Operation cannot be fulfilled on ConfigMap "%s": the UID in the precondition (%s) does not match the UID in '
            "record (%s). The object might have been deleted and then recreated" % (generated.metadata.name, wrong_uid, generated.metadata.uid),
        )
        self.core.read_namespaced_config_map(generated.metadata.name, self.ns)

    def test_secret_string_data_and_label_selected_delete_collection(self):
        secret = self.core.create_namespaced_secret(self.ns, {"metadata": {"name": "creds"}, "stringData": {"user": "admin"}})
        self.assertEqual(secret.type, "Opaque")
        self.assertEqual(base64.b64decode(secret.data["user"]), b"admin")
        self.assertIsNone(secret.string_data)

        for i in range(3):
            self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": "sel-%d" % i, "labels": {"batch": "doomed" if i < 2 else "kept"}}})
        doomed = self.core.list_namespaced_config_map(self.ns, label_selector="batch=doomed")
        self.assertEqual(sorted(cm.metadata.name for cm in doomed.items), ["sel-0", "sel-1"])
        self.core.delete_collection_namespaced_config_map(self.ns, label_selector="batch=doomed")
        left = self.core.list_namespaced_config_map(self.ns, label_selector="batch")
        self.assertEqual([cm.metadata.name for cm in left.items], ["sel-2"])
        by_field = self.core.list_namespaced_config_map(self.ns, field_selector="metadata.name=sel-2")
        self.assertEqual([cm.metadata.name for cm in by_field.items], ["sel-2"])


class PagingTest(NamespacedTest):
    namespace_prefix = "py-paging"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.names = ["page-%02d" % i for i in range(7)]
        for name in cls.names:
            cls.core.create_namespaced_config_map(cls.ns, {"metadata": {"name": name, "labels": {"paged": "yes"}}})

    def test_pages_cover_the_list_once_in_key_order(self):
        seen = []
        first = self.core.list_namespaced_config_map(self.ns, label_selector="paged", limit=3)
        self.assertEqual(len(first.items), 3)
        self.assertTrue(first.metadata._continue)
        # With a selector the server cannot know how many items are left, so it does not say.
        self.assertIsNone(first.metadata.remaining_item_count)
        seen += [cm.metadata.name for cm in first.items]
        token = first.metadata._continue
        pages = 1
        while token:
            page = self.core.list_namespaced_config_map(self.ns, label_selector="paged", limit=3, _continue=token)
            # Every page is served from the first page's snapshot.
            self.assertEqual(page.metadata.resource_version, first.metadata.resource_version)
            seen += [cm.metadata.name for cm in page.items]
            token = page.metadata._continue
            pages += 1
        self.assertEqual(pages, 3)
        self.assertEqual(seen, self.names)

    def test_remaining_item_count_without_a_selector(self):
        total = len(self.core.list_namespaced_config_map(self.ns).items)
        first = self.core.list_namespaced_config_map(self.ns, limit=2)
        self.assertEqual(first.metadata.remaining_item_count, total - 2)

    def test_continuing_reads_the_snapshot_not_later_writes(self):
        first = self.core.list_namespaced_config_map(self.ns, label_selector="paged", limit=4)
        self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": "page-05-late", "labels": {"paged": "yes"}}})
        try:
            rest = self.core.list_namespaced_config_map(self.ns, label_selector="paged", _continue=first.metadata._continue)
            self.assertEqual([cm.metadata.name for cm in first.items + rest.items], self.names)
            fresh = self.core.list_namespaced_config_map(self.ns, label_selector="paged")
            self.assertIn("page-05-late", [cm.metadata.name for cm in fresh.items])
        finally:
            self.core.delete_namespaced_config_map("page-05-late", self.ns)

    def test_malformed_continue_token_is_a_bad_request(self):
        with self.assertRaises(ApiException) as caught:
            self.core.list_namespaced_config_map(self.ns, limit=1, _continue="not-a-token")
        self.assertStatus(caught.exception, 400, "BadRequest")
