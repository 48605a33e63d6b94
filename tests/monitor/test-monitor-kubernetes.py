#!/usr/bin/env python3
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""The fleet examples: monitor/examples/kubernetes/ and the Prometheus
configurations that find and federate its pods.

Debian (bookworm) packages no Kubernetes schema validator (no kubeconform,
no kubeval; yamllint checks YAML, not Kubernetes' schema), so the
manifests are parsed (python3-yaml) and the fields docs/monitor.md relies
on are asserted: every file of the kustomization exists and is in the
vmafhip namespace; each DaemonSet selects its own pods, runs on its
vendor's GPU nodes, asks its vendor's device plugin for one GPU
(nvidia.com/gpu, amd.com/gpu), reads NODE.conf or default.conf from the
ConfigMap, serves port "metrics" (9580, the port of every configuration)
with the prometheus.io annotations and probes on /metrics; the Service
and the PodMonitor select those pods by that port. Every configuration of
the ConfigMap passes vmafhip-monitor --check (pipelines built, scoring
settings accepted, listening on every interface). Debian's promtool is
built without kubernetes_sd, so prometheus-kubernetes.yml is checked by
promtool with its discovery replaced by a static target (the relabelling,
rule files and the rest as written), and its discovery by assertions;
prometheus-federation.yml by promtool as it is, its match[] covering every
recording rule. The promtool parts skip without promtool."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

NAMESPACE = "vmafhip"
PORT = 9580
VENDORS = {"nvidia": ("nvidia.com/gpu", "pci-10de"),
           "amd": ("amd.com/gpu", "pci-1002")}

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def subset(small, big):
    return all(big.get(k) == v for k, v in (small or {}).items())


def check_daemonset(ds, configmap):
    name = ds["metadata"]["name"]
    vendor = name.rsplit("-", 1)[-1]
    resource, pci = VENDORS.get(vendor, (None, None))
    check(resource is not None, f"{name}: a known GPU vendor")
    if resource is None:
        return {}
    spec = ds["spec"]
    pod = spec["template"]
    labels = pod["metadata"]["labels"]
    check(subset(spec["selector"]["matchLabels"], labels),
          f"{name}: selects its own pods")
    node_selector = pod["spec"].get("nodeSelector", {})
    check(node_selector.get(f"feature.node.kubernetes.io/{pci}.present")
          == "true", f"{name}: runs on nodes with a {vendor} GPU "
          f"(Node Feature Discovery's {pci} label)")
    containers = pod["spec"]["containers"]
    check(len(containers) == 1, f"{name}: one container")
    c = containers[0]
    limits = c.get("resources", {}).get("limits", {})
    gpus = {k: v for k, v in limits.items() if k.endswith("/gpu")}
    check(gpus == {resource: 1}, f"{name}: one {resource} from the "
          f"device plugin ({gpus})")
    script = " ".join(c.get("command", []) + c.get("args", []))
    check("vmafhip-monitor --config" in script and
          "/etc/vmafhip/$NODE_NAME.conf" in script and
          "/etc/vmafhip/default.conf" in script,
          f"{name}: runs vmafhip-monitor on NODE.conf or default.conf")
    env = {e["name"]: e for e in c.get("env", [])}
    check(env.get("NODE_NAME", {}).get("valueFrom", {}).get("fieldRef", {})
          .get("fieldPath") == "spec.nodeName",
          f"{name}: NODE_NAME is the node's name")
    mounts = {m["name"]: m for m in c.get("volumeMounts", [])}
    volumes = {v["name"]: v for v in pod["spec"].get("volumes", [])}
    channels = [n for n, m in mounts.items()
                if m["mountPath"] == "/etc/vmafhip"]
    check(len(channels) == 1 and volumes.get(channels[0], {})
          .get("configMap", {}).get("name") == configmap,
          f"{name}: /etc/vmafhip is the ConfigMap {configmap}")
    ports = {p["name"]: p for p in c.get("ports", [])}
    check(ports.get("metrics", {}).get("containerPort") == PORT,
          f"{name}: port metrics is {PORT}")
    annotations = pod["metadata"].get("annotations", {})
    check(annotations.get("prometheus.io/scrape") == "true" and
          annotations.get("prometheus.io/port") == str(PORT) and
          annotations.get("prometheus.io/path") == "/metrics",
          f"{name}: prometheus.io annotations (scrape, port {PORT}, "
          "/metrics), as strings")
    for probe in ("readinessProbe", "livenessProbe"):
        get = c.get(probe, {}).get("httpGet", {})
        check(get.get("path") == "/metrics" and get.get("port") == "metrics",
              f"{name}: {probe} on /metrics")
    return labels


def check_configs(monitor, configmap, tmp):
    data = configmap.get("data", {})
    check("default.conf" in data, "the ConfigMap has default.conf")
    for key, text in data.items():
        check(key.endswith(".conf"), f"ConfigMap key {key} is a .conf")
        path = os.path.join(tmp, key)
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([monitor, "--check", "-c", path],
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, f"{key}: vmafhip-monitor --check "
              f"(exit {p.returncode}{': ' if p.returncode else ''}"
              f"{p.stderr.strip()[-300:] if p.returncode else ''})")
        check(re.search(r"^listen = 0\.0\.0\.0$", text, re.M) and
              re.search(r"^port = %d$" % PORT, text, re.M),
              f"{key}: listens on every interface of the pod, port {PORT}")


def promtool_check(promtool, path):
    p = subprocess.run([promtool, "check", "config", path],
                       capture_output=True, text=True, timeout=60)
    return p.returncode == 0, (p.stdout + p.stderr).strip()[-500:]


def check_prometheus(examples, rules, tmp):
    promtool = shutil.which("promtool")
    kube = load_all(os.path.join(examples, "prometheus-kubernetes.yml"))[0]
    jobs = {j["job_name"]: j for j in kube["scrape_configs"]}
    job = jobs.get("vmafhip", {})
    sd = job.get("kubernetes_sd_configs", [{}])[0]
    check(sd.get("role") == "pod" and
          sd.get("namespaces", {}).get("names") == [NAMESPACE],
          "prometheus-kubernetes.yml: kubernetes_sd finds the pods of the "
          f"{NAMESPACE} namespace")
    relabel = job.get("relabel_configs", [])
    check(any(r.get("action") == "keep" and r.get("source_labels") ==
              ["__meta_kubernetes_pod_annotation_prometheus_io_scrape"]
              for r in relabel),
          "prometheus-kubernetes.yml: keeps the pods annotated "
          "prometheus.io/scrape")
    check(any(r.get("target_label") == "node" for r in relabel),
          "prometheus-kubernetes.yml: a node label")
    check(kube["global"]["scrape_interval"] == "5s",
          "prometheus-kubernetes.yml: scrapes every 5 s")

    federation = load_all(os.path.join(examples,
                                       "prometheus-federation.yml"))[0]
    fjob = federation["scrape_configs"][0]
    matches = fjob["params"]["match[]"]
    check(fjob.get("honor_labels") is True and
          fjob.get("metrics_path") == "/federate",
          "prometheus-federation.yml: /federate with honor_labels")
    for record in rules:
        check(any(re.fullmatch(m.split('"')[1], record) for m in matches
                  if m.startswith("{__name__=~")),
              f"prometheus-federation.yml: federates {record}")

    if not promtool:
        print("SKIP (part): promtool is not installed")
        return
    static = dict(kube)
    static["scrape_configs"] = []
    for j in kube["scrape_configs"]:
        j = dict(j)
        j.pop("kubernetes_sd_configs", None)
        j["static_configs"] = [{"targets": [f"10.0.0.1:{PORT}"]}]
        static["scrape_configs"].append(j)
    for name in static.get("rule_files", []):
        shutil.copy(os.path.join(examples, name), tmp)
    path = os.path.join(tmp, "prometheus-kubernetes-static.yml")
    with open(path, "w") as f:
        yaml.safe_dump(static, f)
    ok, text = promtool_check(promtool, path)
    check(ok, f"prometheus-kubernetes.yml (discovery as a static target): "
          f"promtool check config ({text})")
    ok, text = promtool_check(promtool, os.path.join(
        examples, "prometheus-federation.yml"))
    check(ok, f"prometheus-federation.yml: promtool check config ({text})")


def main():
    monitor, source_root = sys.argv[1], sys.argv[2]
    examples = os.path.join(source_root, "monitor", "examples")
    kdir = os.path.join(examples, "kubernetes")

    kustomization = load_all(os.path.join(kdir, "kustomization.yaml"))[0]
    check(kustomization.get("namespace") == NAMESPACE,
          f"kustomization: namespace {NAMESPACE}")
    docs = []
    for name in kustomization["resources"]:
        path = os.path.join(kdir, name)
        check(os.path.isfile(path), f"kustomization: {name} exists")
        if os.path.isfile(path):
            docs += load_all(path)
    listed = set(kustomization["resources"]) | {"kustomization.yaml"}
    extra = sorted(set(os.listdir(kdir)) - listed)
    check(not extra, f"every manifest is in the kustomization ({extra})")
    by_kind = {}
    for d in docs:
        check(bool(d.get("apiVersion")) and bool(d.get("kind")) and
              bool(d.get("metadata", {}).get("name")),
              f"{d.get('kind')} {d.get('metadata', {}).get('name')}: "
              "apiVersion, kind and name")
        if d["kind"] != "Namespace":
            check(d["metadata"].get("namespace") == NAMESPACE,
                  f"{d['kind']} {d['metadata']['name']}: in {NAMESPACE}")
        by_kind.setdefault(d["kind"], []).append(d)

    configmaps = by_kind.get("ConfigMap", [])
    check(len(configmaps) == 1, "one ConfigMap of channels")
    daemonsets = by_kind.get("DaemonSet", [])
    check(sorted(d["metadata"]["name"] for d in daemonsets) ==
          ["vmafhip-monitor-amd", "vmafhip-monitor-nvidia"],
          "a DaemonSet per GPU vendor")
    pod_labels = [check_daemonset(d, configmaps[0]["metadata"]["name"])
                  for d in daemonsets if configmaps]

    for svc in by_kind.get("Service", []):
        check(all(subset(svc["spec"]["selector"], l) for l in pod_labels),
              "the Service selects every monitor pod")
        check(svc["spec"].get("clusterIP") == "None",
              "the Service is headless (each pod scraped on its own)")
        check(any(p.get("targetPort") == "metrics"
                  for p in svc["spec"]["ports"]),
              "the Service's port is the pods' metrics port")
    for pm in by_kind.get("PodMonitor", []):
        check(all(subset(pm["spec"]["selector"]["matchLabels"], l)
                  for l in pod_labels),
              "the PodMonitor selects every monitor pod")
        endpoints = pm["spec"]["podMetricsEndpoints"]
        check(any(e.get("port") == "metrics" and e.get("interval") == "5s"
                  for e in endpoints),
              "the PodMonitor scrapes port metrics every 5 s")

    rules = [r["record"] for g in load_all(os.path.join(
        examples, "vmafhip-rules.yml"))[0]["groups"] for r in g["rules"]]
    with tempfile.TemporaryDirectory() as tmp:
        if configmaps:
            check_configs(monitor, configmaps[0], tmp)
        check_prometheus(examples, rules, tmp)

    print("FAIL" if failures else "PASS")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
