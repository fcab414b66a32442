"""config.load_kube_config with the kubeconfig Cascade writes: the embedded CA is trusted, the token authenticates."""

import unittest

from kubernetes import client
from kubernetes.client.rest import ApiException

from cascade_support import status_of


class KubeconfigTest(unittest.TestCase):
    def test_the_embedded_ca_and_token_are_used(self):
        configuration = client.Configuration.get_default_copy()
        self.assertTrue(configuration.host.startswith("https://"))
        self.assertTrue(configuration.verify_ssl)
        self.assertTrue(configuration.ssl_ca_cert)
        self.assertTrue(configuration.api_key["authorization"].startswith("Bearer "))
        with client.ApiClient(configuration) as api_client:
            self.assertRegex(client.VersionApi(api_client).get_code().git_version, r"^v1\.32\.")
            names = [ns.metadata.name for ns in client.CoreV1Api(api_client).list_namespace().items]
            self.assertIn("kube-system", names)

    def test_without_the_token_requests_are_unauthorized(self):
        configuration = client.Configuration.get_default_copy()
        configuration.api_key = {}
        with client.ApiClient(configuration) as api_client:
            with self.assertRaises(ApiException) as caught:
                client.CoreV1Api(api_client).list_namespace()
        self.assertEqual(caught.exception.status, 401)
        body = status_of(caught.exception)
        self.assertEqual((body["kind"], body["reason"], body["message"], body["code"]), ("Status", "Unauthorized", "Unauthorized", 401))
