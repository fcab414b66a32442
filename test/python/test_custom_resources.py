"""A CustomResourceDefinition driven through ApiextensionsV1Api, CustomObjectsApi and the dynamic client."""

from kubernetes import client, dynamic, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic.exceptions import NotFoundError

from cascade_support import NamespacedTest, eventually, is_gone, status_of

GROUP = "python.cascade.test"
VERSION = "v1"
PLURAL = "widgets"
CRD_NAME = "%s.%s" % (PLURAL, GROUP)

CRD = {
    "apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition",
    "metadata": {"name": CRD_NAME},
    "spec": {
        "group": GROUP,
        "scope": "Namespaced",
        "names": {"plural": PLURAL, "singular": "widget", "kind": "Widget", "listKind": "WidgetList", "shortNames": ["wdg"]},
        "versions": [
            {
                "name": VERSION,
                "served": True,
                "storage": True,
                "subresources": {"status": {}},
                "schema": {
                    "openAPIV3Schema": {
                        "type": "object",
                        "properties": {
                            "spec": {"type": "object", "properties": {"size": {"type": "integer", "minimum": 0}, "color": {"type": "string"}}},
                            "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}},
                        },
                    }
                },
            }
        ],
    },
}


def widget(name, size=1, **spec):
    return {"apiVersion": "%s/%s" % (GROUP, VERSION), "kind": "Widget", "metadata": {"name": name}, "spec": dict(size=size, **spec)}


class CustomResourceTest(NamespacedTest):
    namespace_prefix = "py-crd"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.ext = client.ApiextensionsV1Api(cls.api_client)
        cls.custom = client.CustomObjectsApi(cls.api_client)
        cls.ext.create_custom_resource_definition(CRD)

        def established():
            conditions = cls.ext.read_custom_resource_definition(CRD_NAME).status.conditions or []
            return True if any(c.type == "Established" and c.status == "True" for c in conditions) else None

        eventually(established, "CRD Established")

    @classmethod
    def tearDownClass(cls):
        cls.ext.delete_custom_resource_definition(CRD_NAME)
        eventually(lambda: is_gone(lambda: cls.ext.read_custom_resource_definition(CRD_NAME)), "CRD deleted")
        super().tearDownClass()

    def args(self):
        return GROUP, VERSION, self.ns, PLURAL

    def test_custom_objects_api_crud(self):
        created = self.custom.create_namespaced_custom_object(*self.args(), widget("w1", size=3, extra="pruned"))
        self.assertIsInstance(created, dict)
        self.assertTrue(created["metadata"]["uid"])
        self.assertEqual(created["metadata"]["namespace"], self.ns)
        # Fields outside the structural schema are pruned.
        self.assertEqual(created["spec"], {"size": 3})

        got = self.custom.get_namespaced_custom_object(*self.args(), "w1")
        self.assertEqual(got["metadata"]["resourceVersion"], created["metadata"]["resourceVersion"])

        patched = self.custom.patch_namespaced_custom_object(*self.args(), "w1", {"spec": {"color": "red"}})
        self.assertEqual(patched["spec"], {"size": 3, "color": "red"})

        got["spec"]["size"] = 4
        with self.assertRaises(ApiException) as caught:
            self.custom.replace_namespaced_custom_object(*self.args(), "w1", got)
        body = self.assertStatus(caught.exception, 409, "Conflict")
        self.assertEqual(body["details"], {"name": "w1", "group": GROUP, "kind": PLURAL})
        patched["spec"]["size"] = 4
        replaced = self.custom.replace_namespaced_custom_object(*self.args(), "w1", patched)
        self.assertEqual(replaced["spec"]["size"], 4)

        listed = self.custom.list_namespaced_custom_object(*self.args())
        self.assertEqual(listed["kind"], "WidgetList")
        self.assertEqual([w["metadata"]["name"] for w in listed["items"]], ["w1"])

        deleted = self.custom.delete_namespaced_custom_object(*self.args(), "w1")
        self.assertEqual(deleted["status"], "Success")
        with self.assertRaises(ApiException) as caught:
            self.custom.get_namespaced_custom_object(*self.args(), "w1")
        body = self.assertStatus(caught.exception, 404, "NotFound")
        self.assertEqual(body["message"], 'widgets.%s "w1" not found' % GROUP)

    def test_schema_violations_are_invalid(self):
        with self.assertRaises(ApiException) as caught:
            self.custom.create_namespaced_custom_object(*self.args(), widget("bad", size="big"))
        body = self.assertStatus(caught.exception, 422, "Invalid")
        self.assertEqual(body["details"]["group"], GROUP)
        self.assertEqual(body["details"]["kind"], "Widget")
        self.assertEqual(body["details"]["name"], "bad")
        self.assertEqual([c["field"] for c in body["details"]["causes"]], ["spec.size"])
        self.assertTrue(body["message"].startswith('Widget.%s "bad" is invalid: spec.size: Invalid value: "string"' % GROUP), body["message"])

        with self.assertRaises(ApiException) as caught:
            self.custom.create_namespaced_custom_object(*self.args(), widget("negative", size=-1))
        body = self.assertStatus(caught.exception, 422, "Invalid")
        self.assertEqual([c["field"] for c in body["details"]["causes"]], ["spec.size"])

    def test_status_subresource(self):
        with_status = dict(widget("s1"), status={"ready": True})
        created = self.custom.create_namespaced_custom_object(*self.args(), with_status)
        # With a status subresource, the main resource ignores status.
        self.assertNotIn("status", created)
        updated = self.custom.patch_namespaced_custom_object_status(*self.args(), "s1", {"status": {"ready": True}})
        self.assertEqual(updated["status"], {"ready": True})
        self.assertEqual(self.custom.get_namespaced_custom_object_status(*self.args(), "s1")["status"], {"ready": True})
        ignored = self.custom.patch_namespaced_custom_object(*self.args(), "s1", {"status": {"ready": False}, "spec": {"size": 2}})
        self.assertEqual((ignored["spec"]["size"], ignored["status"]), (2, {"ready": True}))

    def test_watching_custom_objects(self):
        listed = self.custom.list_namespaced_custom_object(*self.args())
        self.custom.create_namespaced_custom_object(*self.args(), widget("watched"))
        self.custom.patch_namespaced_custom_object(*self.args(), "watched", {"spec": {"size": 9}})
        self.custom.delete_namespaced_custom_object(*self.args(), "watched")
        w = watch.Watch()
        events = []
        for event in w.stream(
            self.custom.list_namespaced_custom_object,
            *self.args(),
            resource_version=listed["metadata"]["resourceVersion"],
            timeout_seconds=10,
        ):
            events.append(event)
            if len(events) == 3:
                break
        w.stop()
        self.assertEqual([(e["type"], e["object"]["metadata"]["name"]) for e in events], [("ADDED", "watched"), ("MODIFIED", "watched"), ("DELETED", "watched")])
        self.assertEqual(events[1]["object"]["spec"]["size"], 9)
        self.assertEqual(events[0]["object"]["kind"], "Widget")

    def test_dynamic_client(self):
        dyn = dynamic.DynamicClient(self.api_client)
        widgets = dyn.resources.get(api_version="%s/%s" % (GROUP, VERSION), kind="Widget")
        self.assertTrue(widgets.namespaced)
        self.assertEqual(widgets.name, PLURAL)
        self.assertEqual(widgets.short_names, ["wdg"])

        created = widgets.create(body=widget("d1", size=5), namespace=self.ns)
        self.assertEqual(created.spec.size, 5)
        got = widgets.get(name="d1", namespace=self.ns)
        self.assertEqual(got.metadata.uid, created.metadata.uid)
        patched = widgets.patch(body={"spec": {"color": "blue"}}, name="d1", namespace=self.ns, content_type="application/merge-patch+json")
        self.assertEqual(patched.spec.color, "blue")
        self.assertEqual([w.metadata.name for w in widgets.get(namespace=self.ns).items], ["d1"])

        events = []
        for event in widgets.watch(namespace=self.ns, resource_version=created.metadata.resourceVersion, timeout=10):
            events.append(event)
            break
        self.assertEqual(len(events), 1, "the watch ended without an event")
        self.assertEqual((events[0]["type"], events[0]["object"].spec.color), ("MODIFIED", "blue"))

        widgets.delete(name="d1", namespace=self.ns)
        with self.assertRaises(NotFoundError) as caught:
            widgets.get(name="d1", namespace=self.ns)
        self.assertEqual(caught.exception.status, 404)
        self.assertEqual(status_of(caught.exception)["reason"], "NotFound")

        # The same client reaches built-in kinds through discovery.
        config_maps = dyn.resources.get(api_version="v1", kind="ConfigMap")
        config_maps.create(body={"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "via-dynamic"}, "data": {"k": "v"}}, namespace=self.ns)
        self.assertEqual(self.core.read_namespaced_config_map("via-dynamic", self.ns).data, {"k": "v"})


class CustomResourceCleanupTest(NamespacedTest):
    """Deleting a CRD deletes its objects before the definition goes."""

    namespace_prefix = "py-crd-cleanup"

    def test_deleting_the_definition_removes_its_objects(self):
        ext = client.ApiextensionsV1Api(self.api_client)
        custom = client.CustomObjectsApi(self.api_client)
        crd = {**CRD, "metadata": {"name": "gadgets.%s" % GROUP}}
        crd["spec"] = {**CRD["spec"], "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"}}
        ext.create_custom_resource_definition(crd)

        def create():
            return custom.create_namespaced_custom_object(GROUP, VERSION, self.ns, "gadgets", {"apiVersion": "%s/%s" % (GROUP, VERSION), "kind": "Gadget", "metadata": {"name": "g"}, "spec": {"size": 1}})

        eventually(create, "gadgets served")
        ext.delete_custom_resource_definition("gadgets.%s" % GROUP)
        eventually(lambda: is_gone(lambda: ext.read_custom_resource_definition("gadgets.%s" % GROUP)), "CRD gone")
        with self.assertRaises(ApiException) as caught:
            custom.list_namespaced_custom_object(GROUP, VERSION, self.ns, "gadgets")
        self.assertEqual(caught.exception.status, 404)

        # Defined again, the kind starts empty: the old objects went with the old definition.
        ext.create_custom_resource_definition(crd)
        try:
            listed = eventually(lambda: custom.list_namespaced_custom_object(GROUP, VERSION, self.ns, "gadgets"), "gadgets served again")
            self.assertEqual(listed["items"], [])
        finally:
            ext.delete_custom_resource_definition("gadgets.%s" % GROUP)
            eventually(lambda: is_gone(lambda: ext.read_custom_resource_definition("gadgets.%s" % GROUP)), "CRD gone again")
