"""Cascading deletion (R2, R4) and namespace deletion (R3, R5) as a Python user drives them through DeleteOptions."""

from kubernetes import client
from kubernetes.client.rest import ApiException

from cascade_support import NamespacedTest, eventually, is_gone, unique


class PropagationTest(NamespacedTest):
    namespace_prefix = "py-gc"

    def owner(self):
        return self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": unique("owner")}})

    def dependent(self, owner, block=None, finalizers=None):
        ref = {"apiVersion": "v1", "kind": "ConfigMap", "name": owner.metadata.name, "uid": owner.metadata.uid}
        if block is not None:
            ref["blockOwnerDeletion"] = block
        meta = {"name": unique("dep"), "ownerReferences": [ref]}
        if finalizers:
            meta["finalizers"] = finalizers
        return self.core.create_namespaced_config_map(self.ns, {"metadata": meta})

    def read(self, obj):
        return self.core.read_namespaced_config_map(obj.metadata.name, self.ns)

    def gone(self, obj):
        return is_gone(lambda: self.read(obj))

    def release(self, obj):
        """Drops the test's finalizer so the held object can go."""
        self.core.patch_namespaced_config_map(obj.metadata.name, self.ns, [{"op": "remove", "path": "/metadata/finalizers"}])

    def test_background_deletes_the_owner_at_once_and_the_dependents_after(self):
        owner = self.owner()
        deps = [self.dependent(owner) for _ in range(3)]
        status = self.core.delete_namespaced_config_map(owner.metadata.name, self.ns, propagation_policy="Background")
        self.assertEqual(status.status, "Success")
        self.assertTrue(self.gone(owner))
        for dep in deps:
            eventually(lambda dep=dep: self.gone(dep), "dependent %s collected" % dep.metadata.name)

    def test_default_propagation_for_a_config_map_is_background(self):
        owner = self.owner()
        dep = self.dependent(owner)
        self.core.delete_namespaced_config_map(owner.metadata.name, self.ns)
        self.assertTrue(self.gone(owner))
        eventually(lambda: self.gone(dep), "dependent collected")

    def test_orphan_keeps_the_dependents_without_their_owner_reference(self):
        owner = self.owner()
        deps = [self.dependent(owner) for _ in range(2)]
        self.core.delete_namespaced_config_map(owner.metadata.name, self.ns, body=client.V1DeleteOptions(propagation_policy="Orphan"))
        eventually(lambda: self.gone(owner), "owner deleted once orphaned")
        for dep in deps:
            left = self.read(dep)
            self.assertFalse(left.metadata.owner_references)
            self.assertIsNone(left.metadata.deletion_timestamp)

    def test_the_deprecated_orphan_dependents_query_parameter_still_orphans(self):
        owner = self.owner()
        dep = self.dependent(owner)
        # The client sends the Python boolean as "True", which the apiserver parses as Go's ParseBool does.
        self.core.delete_namespaced_config_map(owner.metadata.name, self.ns, orphan_dependents=True)
        eventually(lambda: self.gone(owner), "owner deleted once orphaned")
        self.assertFalse(self.read(dep).metadata.owner_references)

    def test_foreground_waits_for_a_blocking_dependent(self):
        owner = self.owner()
        blocking = self.dependent(owner, block=True, finalizers=["python.cascade.test/hold"])
        self.core.delete_namespaced_config_map(owner.metadata.name, self.ns, propagation_policy="Foreground")
        terminating = self.read(owner)
        self.assertIsNotNone(terminating.metadata.deletion_timestamp)
        self.assertIn("foregroundDeletion", terminating.metadata.finalizers)

        # The collector deletes the dependent; its finalizer keeps it, and it keeps the owner.
        eventually(lambda: self.read(blocking).metadata.deletion_timestamp, "blocking dependent marked for deletion")
        still = self.read(owner)
        self.assertEqual(still.metadata.uid, owner.metadata.uid)
        self.assertIn("foregroundDeletion", still.metadata.finalizers)

        self.release(blocking)
        eventually(lambda: self.gone(blocking), "blocking dependent gone")
        eventually(lambda: self.gone(owner), "owner gone after its blocking dependent")

    def test_foreground_does_not_wait_for_a_non_blocking_dependent(self):
        owner = self.owner()
        held = self.dependent(owner, block=False, finalizers=["python.cascade.test/hold"])
        self.core.delete_namespaced_config_map(owner.metadata.name, self.ns, propagation_policy="Foreground")
        eventually(lambda: self.gone(owner), "owner gone while a non-blocking dependent lingers")
        # The collector deletes it too, but its finalizer keeps it.
        eventually(lambda: self.read(held).metadata.deletion_timestamp, "non-blocking dependent marked for deletion")
        self.release(held)
        eventually(lambda: self.gone(held), "released dependent gone")

    def test_both_propagation_fields_at_once_is_invalid(self):
        owner = self.owner()
        options = client.V1DeleteOptions(propagation_policy="Foreground", orphan_dependents=True)
        with self.assertRaises(ApiException) as caught:
            self.core.delete_namespaced_config_map(owner.metadata.name, self.ns, body=options)
        body = self.assertStatus(caught.exception, 422, "Invalid")
        self.assertIn("orphanDependents", body["message"])
        self.read(owner)


class NamespaceDeletionTest(NamespacedTest):
    namespace_prefix = "py-nsdel"

    def test_a_deleted_namespace_terminates_empties_and_goes(self):
        victim = unique("py-victim")
        self.core.create_namespace({"metadata": {"name": victim}})
        for i in range(3):
            self.core.create_namespaced_config_map(victim, {"metadata": {"name": "cm-%d" % i}})
        self.core.create_namespaced_secret(victim, {"metadata": {"name": "s"}})
        self.core.create_namespaced_config_map(victim, {"metadata": {"name": "held", "finalizers": ["python.cascade.test/hold"]}})

        self.core.delete_namespace(victim)
        terminating = self.core.read_namespace(victim)
        self.assertEqual(terminating.status.phase, "Terminating")
        self.assertIsNotNone(terminating.metadata.deletion_timestamp)
        self.assertEqual(terminating.spec.finalizers, ["kubernetes"])

        with self.assertRaises(ApiException) as caught:
            self.core.create_namespaced_config_map(victim, {"metadata": {"name": "late"}})
        body = self.assertStatus(caught.exception, 403, "Forbidden")
        self.assertIn("because it is being terminated", body["message"])
        self.assertEqual(body["details"]["causes"][0]["reason"], "NamespaceTerminating")

        def only_held_left():
            names = [cm.metadata.name for cm in self.core.list_namespaced_config_map(victim).items]
            return True if names == ["held"] and not self.core.list_namespaced_secret(victim).items else None

        eventually(only_held_left, "namespace content deleted but the finalizer-held object")

        def finalizers_remaining():
            conditions = self.core.read_namespace(victim).status.conditions or []
            by_type = {c.type: c for c in conditions}
            cond = by_type.get("NamespaceFinalizersRemaining")
            return cond if cond is not None and cond.status == "True" else None

        cond = eventually(finalizers_remaining, "NamespaceFinalizersRemaining condition")
        self.assertIn("python.cascade.test/hold", cond.message)

        self.core.patch_namespaced_config_map("held", victim, {"metadata": {"finalizers": None}})
        eventually(lambda: is_gone(lambda: self.core.read_namespace(victim)), "namespace gone")

    def test_default_namespace_may_not_be_deleted(self):
        with self.assertRaises(ApiException) as caught:
            self.core.delete_namespace("default")
        body = self.assertStatus(caught.exception, 403, "Forbidden")
        self.assertEqual(body["message"], 'namespaces "default" is forbidden: this namespace may not be deleted')
        self.assertIsNone(self.core.read_namespace("default").metadata.deletion_timestamp)
