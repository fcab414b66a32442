"""Shared helpers for the Python client suite: one kubeconfig, bounded polling, Status bodies, scratch namespaces.

The suite drives a Cascade server exactly as a Python user would: through Debian's python3-kubernetes, configured from
the kubeconfig in $KUBECONFIG (the one the server writes, with the CA and the admin token embedded).
"""

import json
import time
import unittest
import uuid

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config()

# Bounds for polling: the server's controllers settle in milliseconds; a slow CI machine gets ample slack.
DEADLINE_SECONDS = 20.0


def eventually(check, what, timeout=DEADLINE_SECONDS):
    """Calls `check` until it returns something other than None (an exception counts as "not yet"), within a bound."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            value = check()
            if value is not None:
                return value
        except Exception as err:  # noqa: BLE001 - the last failure is reported when the bound is hit
            last = err
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for %s%s" % (what, ": %r" % last if last else ""))
        time.sleep(0.02)


def status_of(exc):
    """The metav1.Status an ApiException carries in its body."""
    body = exc.body.decode() if isinstance(exc.body, bytes) else exc.body
    return json.loads(body)


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def is_gone(read):
    """None while `read()` still finds the object; True once it answers 404."""
    try:
        read()
    except ApiException as err:
        if err.status == 404:
            return True
        raise
    return None


class NamespacedTest(unittest.TestCase):
    """A test class with its own namespace, deleted afterwards (the namespace controller empties it)."""

    namespace_prefix = "py"

    @classmethod
    def setUpClass(cls):
        cls.api_client = client.ApiClient()
        cls.core = client.CoreV1Api(cls.api_client)
        cls.ns = unique(cls.namespace_prefix)
        cls.core.create_namespace({"metadata": {"name": cls.ns}})

    @classmethod
    def tearDownClass(cls):
        cls.core.delete_namespace(cls.ns)
        cls.api_client.close()

    def assertStatus(self, exc, code, reason):
        """The exception and the Status in its body agree on the HTTP code and carry the Kubernetes reason."""
        self.assertEqual(exc.status, code)
        status = status_of(exc)
        self.assertEqual(status["kind"], "Status")
        self.assertEqual(status["apiVersion"], "v1")
        self.assertEqual(status["status"], "Failure")
        self.assertEqual(status["code"], code)
        self.assertEqual(status["reason"], reason)
        return status
