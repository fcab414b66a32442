"""kubernetes.utils.create_from_yaml with a multi-document file: every document created, failures collected per document."""

import base64
import os

from kubernetes import client, utils

from cascade_support import NamespacedTest, status_of

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "multi-document.yaml")


class CreateFromYamlTest(NamespacedTest):
    namespace_prefix = "py-yaml"

    def test_every_document_is_created_and_a_second_run_reports_each_conflict(self):
        created = utils.create_from_yaml(self.api_client, FIXTURE, namespace=self.ns)
        # One entry per non-empty document; a List yields one per item.
        self.assertEqual(len(created), 5)
        self.assertIsInstance(created[0][0], client.V1ConfigMap)
        self.assertEqual([o.metadata.name for o in created[4]], ["listed-one", "listed-two"])

        self.assertEqual(self.core.read_namespaced_config_map("settings", self.ns).data, {"mode": "fast"})
        secret = self.core.read_namespaced_secret("credentials", self.ns)
        self.assertEqual(base64.b64decode(secret.data["password"]), b"hunter2")
        service = self.core.read_namespaced_service("frontend", self.ns)
        self.assertEqual(service.spec.ports[0].port, 80)
        self.assertEqual(service.spec.ports[0].target_port, 8080)
        self.assertEqual(service.spec.type, "ClusterIP")
        deployment = client.AppsV1Api(self.api_client).read_namespaced_deployment("frontend", self.ns)
        self.assertEqual(deployment.spec.replicas, 2)
        self.assertEqual(deployment.spec.template.spec.containers[0].image, "nginx:1.27")
        labelled = self.core.list_namespaced_config_map(self.ns, label_selector="app=yaml-demo")
        self.assertEqual(sorted(cm.metadata.name for cm in labelled.items), ["listed-one", "listed-two", "settings"])

        with self.assertRaises(utils.FailToCreateError) as caught:
            utils.create_from_yaml(self.api_client, FIXTURE, namespace=self.ns)
        failures = caught.exception.api_exceptions
        self.assertEqual(len(failures), 6)
        for failure in failures:
            self.assertEqual(failure.status, 409)
            self.assertEqual(status_of(failure)["reason"], "AlreadyExists")
        self.assertEqual(
            sorted(status_of(f)["details"]["kind"] for f in failures),
            ["configmaps", "configmaps", "configmaps", "deployments", "secrets", "services"],
        )

    def test_yaml_objects_and_a_documents_own_namespace(self):
        other = self.ns + "-own"
        self.core.create_namespace({"metadata": {"name": other}})
        try:
            objects = [
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "here"}},
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "there", "namespace": other}},
            ]
            utils.create_from_yaml(self.api_client, yaml_objects=objects, namespace=self.ns)
            self.assertEqual(self.core.read_namespaced_config_map("here", self.ns).metadata.namespace, self.ns)
            self.assertEqual(self.core.read_namespaced_config_map("there", other).metadata.namespace, other)
        finally:
            self.core.delete_namespace(other)

    def test_a_failing_document_does_not_stop_the_others(self):
        objects = [
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "Not_Valid"}},
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "valid"}},
        ]
        with self.assertRaises(utils.FailToCreateError) as caught:
            utils.create_from_yaml(self.api_client, yaml_objects=objects, namespace=self.ns)
        self.assertEqual([(f.status, status_of(f)["reason"]) for f in caught.exception.api_exceptions], [(422, "Invalid")])
        self.core.read_namespaced_config_map("valid", self.ns)
