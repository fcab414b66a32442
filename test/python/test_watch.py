"""Watches through kubernetes.watch.Watch: resuming from a list's resourceVersion, initial state, bookmarks, timeouts."""

import time

from kubernetes import watch

from cascade_support import NamespacedTest, unique

# Every watch here carries a server-side timeout, so a missing event fails the test instead of hanging it.
WATCH_TIMEOUT_SECONDS = 10


def collect(stream, count):
    """The first `count` events of a watch (fewer if it ends), stopping the watch once they are in."""
    events = []
    for event in stream:
        events.append(event)
        if len(events) == count:
            break
    return events


class WatchTest(NamespacedTest):
    namespace_prefix = "py-watch"

    def test_watch_from_a_lists_resource_version_replays_later_writes_in_order(self):
        listed = self.core.list_namespaced_config_map(self.ns)
        name = unique("cm")
        created = self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": name}, "data": {"v": "1"}})
        updated = self.core.patch_namespaced_config_map(name, self.ns, {"data": {"v": "2"}})
        self.core.delete_namespaced_config_map(name, self.ns)

        w = watch.Watch()
        events = collect(
            w.stream(
                self.core.list_namespaced_config_map,
                self.ns,
                resource_version=listed.metadata.resource_version,
                timeout_seconds=WATCH_TIMEOUT_SECONDS,
            ),
            3,
        )
        w.stop()
        self.assertEqual([e["type"] for e in events], ["ADDED", "MODIFIED", "DELETED"])
        self.assertEqual({e["object"].metadata.name for e in events}, {name})
        self.assertEqual(events[0]["object"].metadata.resource_version, created.metadata.resource_version)
        self.assertEqual(events[1]["object"].metadata.resource_version, updated.metadata.resource_version)
        self.assertEqual(events[1]["object"].data, {"v": "2"})
        self.assertEqual(events[0]["raw_object"]["kind"], "ConfigMap")
        # The client remembers the last event's version, to resume from it.
        self.assertEqual(w.resource_version, events[2]["object"].metadata.resource_version)

    def test_watch_without_a_resource_version_starts_with_the_current_state(self):
        names = sorted(unique("init") for _ in range(3))
        for name in names:
            self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": name, "labels": {"set": "initial"}}})
        w = watch.Watch()
        events = collect(
            w.stream(self.core.list_namespaced_config_map, self.ns, label_selector="set=initial", timeout_seconds=WATCH_TIMEOUT_SECONDS),
            3,
        )
        w.stop()
        self.assertEqual([e["type"] for e in events], ["ADDED"] * 3)
        self.assertEqual(sorted(e["object"].metadata.name for e in events), names)

    def test_field_selected_watch_sees_only_its_object(self):
        listed = self.core.list_namespaced_config_map(self.ns)
        self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": "other"}})
        self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": "watched"}})
        self.core.patch_namespaced_config_map("other", self.ns, {"data": {"x": "1"}})
        self.core.patch_namespaced_config_map("watched", self.ns, {"data": {"x": "1"}})
        w = watch.Watch()
        events = collect(
            w.stream(
                self.core.list_namespaced_config_map,
                self.ns,
                field_selector="metadata.name=watched",
                resource_version=listed.metadata.resource_version,
                timeout_seconds=WATCH_TIMEOUT_SECONDS,
            ),
            2,
        )
        w.stop()
        self.assertEqual([(e["type"], e["object"].metadata.name) for e in events], [("ADDED", "watched"), ("MODIFIED", "watched")])

    def test_bookmarks_arrive_when_allowed(self):
        listed = self.core.list_namespaced_config_map(self.ns)
        w = watch.Watch()
        bookmark = None
        # Besides the periodic one, the server bookmarks 2 s before the deadline: within a second here.
        for event in w.stream(
            self.core.list_namespaced_config_map,
            self.ns,
            resource_version=listed.metadata.resource_version,
            allow_watch_bookmarks=True,
            timeout_seconds=3,
        ):
            if event["type"] == "BOOKMARK":
                bookmark = event
                break
        w.stop()
        self.assertIsNotNone(bookmark, "no BOOKMARK before the watch timed out")
        # A bookmark carries only the kind and a resourceVersion no older than the one watched from.
        raw = bookmark["raw_object"]
        self.assertEqual(raw["kind"], "ConfigMap")
        self.assertEqual(raw["apiVersion"], "v1")
        self.assertGreaterEqual(int(raw["metadata"]["resourceVersion"]), int(listed.metadata.resource_version))
        self.assertNotIn("name", raw["metadata"])

    def test_watch_ends_at_its_timeout_without_unrequested_bookmarks(self):
        listed = self.core.list_namespaced_config_map(self.ns)
        w = watch.Watch()
        started = time.monotonic()
        events = list(
            w.stream(self.core.list_namespaced_config_map, self.ns, resource_version=listed.metadata.resource_version, timeout_seconds=1)
        )
        elapsed = time.monotonic() - started
        self.assertEqual(events, [])
        self.assertGreaterEqual(elapsed, 0.9)
        self.assertLess(elapsed, 5)

    def test_all_namespaces_watch_names_each_objects_namespace(self):
        listed = self.core.list_config_map_for_all_namespaces(limit=1)
        name = unique("everywhere")
        self.core.create_namespaced_config_map(self.ns, {"metadata": {"name": name}})
        w = watch.Watch()
        found = None
        for event in w.stream(
            self.core.list_config_map_for_all_namespaces, resource_version=listed.metadata.resource_version, timeout_seconds=WATCH_TIMEOUT_SECONDS
        ):
            if event["object"].metadata.name == name:
                found = event
                break
        w.stop()
        self.assertIsNotNone(found)
        self.assertEqual((found["type"], found["object"].metadata.namespace), ("ADDED", self.ns))
