{{- define "modelplane.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "modelplane.labels" -}}
app.kubernetes.io/part-of: modelplane
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/instance: {{ .Release.Name }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- /* Pod and container security: restricted Pod Security. */ -}}
{{- define "modelplane.podSecurity" -}}
runAsNonRoot: true
runAsUser: 65532
seccompProfile:
  type: RuntimeDefault
{{- end -}}
{{- define "modelplane.containerSecurity" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}

{{- /* What the operator does to cluster-scoped objects (always a ClusterRole); deploy/operator/rbac.yaml explains each
rule. No Secrets, no ClusterRoles, no ClusterRoleBinding writes here (see operator-picker-rbac.yaml). */ -}}
{{- define "modelplane.operator.clusterRules" -}}
# OME cluster base models and fine-tuned weights: read, finalizers, status, and a merge patch of spec to fill
# metadata the user left empty; cluster runtimes are read.
- apiGroups: [ome.io]
  resources: [clusterbasemodels, clusterservingruntimes, finetunedweights]
  verbs: [get, list, watch]
- apiGroups: [ome.io]
  resources: [clusterbasemodels, finetunedweights]
  verbs: [patch, update]
- apiGroups: [ome.io]
  resources: [clusterbasemodels/status, finetunedweights/status]
  verbs: [get, patch, update]
- apiGroups: [ome.io]
  resources: [clusterbasemodels/finalizers, finetunedweights/finalizers]
  verbs: [update]
# Observed only: GPU capacity, priority values.
- apiGroups: [""]
  resources: [nodes]
  verbs: [get, list, watch]
- apiGroups: [scheduling.k8s.io]
  resources: [priorityclasses]
  verbs: [get, list, watch]
# Workload policy: a namespace's label modelplane.dev/workload-policy=privileged lets its resources ask for host
# access, root or external Services. Read only; unreadable means restricted.
- apiGroups: [""]
  resources: [namespaces]
  verbs: [get, list, watch]
{{- end -}}

{{- /* What the operator does in the namespaces it serves. */ -}}
{{- define "modelplane.operator.namespacedRules" -}}
# The primaries: read, finalizers, status.
- apiGroups: [inference.llmkube.dev]
  resources: [inferenceservices, models]
  verbs: [get, list, watch, patch, update]
- apiGroups: [inference.llmkube.dev]
  resources: [inferenceservices/status, models/status]
  verbs: [get, patch, update]
- apiGroups: [inference.llmkube.dev]
  resources: [inferenceservices/finalizers, models/finalizers]
  verbs: [update]
- apiGroups: [ome.io]
  resources: [basemodels]
  verbs: [get, list, watch, patch, update]
- apiGroups: [ome.io]
  resources: [basemodels/status]
  verbs: [get, patch, update]
- apiGroups: [ome.io]
  resources: [basemodels/finalizers]
  verbs: [update]
- apiGroups: [ome.io]
  resources: [inferenceservices, servingruntimes]
  verbs: [get, list, watch]
- apiGroups: [ome.io]
  resources: [inferenceservices/status]
  verbs: [get, patch, update]
- apiGroups: [ome.io]
  resources: [benchmarkjobs]
  verbs: [get, list, watch]
- apiGroups: [ome.io]
  resources: [benchmarkjobs/status]
  verbs: [get, patch, update]
- apiGroups: [ome.io]
  resources: [benchmarkjobs/finalizers]
  verbs: [update]
# Owned objects, applied server-side, deleted when no longer wanted.
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get, list, watch, create, patch, update, delete]
- apiGroups: [apps]
  resources: [replicasets]
  verbs: [get, list, patch, update]  # a ReplicaSet whose pods are refused is woken (annotated) to retry at once
- apiGroups: [""]
  resources: [services]
  verbs: [get, list, watch, create, patch, update, delete]
- apiGroups: [autoscaling]
  resources: [horizontalpodautoscalers]
  verbs: [get, list, watch, create, patch, update, delete]
- apiGroups: [policy]
  resources: [poddisruptionbudgets]
  verbs: [get, list, watch, create, patch, update, delete]
- apiGroups: [networking.k8s.io]
  resources: [ingresses]
  verbs: [get, list, create, patch, delete]
# Precise prefix-cache routing: the KV-event sockets' NetworkPolicies.
- apiGroups: [networking.k8s.io]
  resources: [networkpolicies]
  verbs: [get, list, watch, create, update, patch, delete]
# Routers' and pickers' identity (a Role can only grant what the operator holds).
- apiGroups: [""]
  resources: [serviceaccounts]
  verbs: [get, list, create, patch, delete]
- apiGroups: [rbac.authorization.k8s.io]
  resources: [roles, rolebindings]
  verbs: [get, list, create, patch, delete]
- apiGroups: [inference.networking.k8s.io]
  resources: [inferencepools]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [inference.networking.x-k8s.io, llm-d.ai]
  resources: [inferenceobjectives, inferencemodelrewrites]
  verbs: [get, list, watch]
- apiGroups: [inference.networking.x-k8s.io, llm-d.ai]
  resources: [inferenceobjectives/status, inferencemodelrewrites/status]
  verbs: [patch]
# Routers' reads of their pools' endpoint pickers (services are granted above).
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [list, watch]
# Model prefetch and benchmark Jobs.
- apiGroups: [batch]
  resources: [jobs]
  verbs: [get, list, watch, create, patch, delete]
# Model-cache claims.
- apiGroups: [""]
  resources: [persistentvolumeclaims]
  verbs: [get, list, watch, create, patch, delete]
# Inference pods: read; the startup-protection annotation; first kilobytes of a log; recycling by eviction.
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch, patch]
- apiGroups: [""]
  resources: [pods/log]
  verbs: [get]
- apiGroups: [""]
  resources: [pods/eviction]
  verbs: [create]
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
# Optional integrations and workload kinds, only for services that ask for them.
- apiGroups: [pyrra.dev]
  resources: [servicelevelobjectives]
  verbs: [get, list, create, patch, delete]
- apiGroups: [gateway.envoyproxy.io]
  resources: [backends]
  verbs: [get, list, create, patch, delete]
- apiGroups: [aigateway.envoyproxy.io]
  resources: [aiservicebackends, aigatewayroutes]
  verbs: [get, list, create, patch, delete]
- apiGroups: [leaderworkerset.x-k8s.io]
  resources: [leaderworkersets]
  verbs: [get, list, create, patch, delete]
- apiGroups: [serving.knative.dev]
  resources: [services]
  verbs: [get, list, create, patch, delete]
- apiGroups: [keda.sh]
  resources: [scaledobjects]
  verbs: [get, list, create, patch, delete]
- apiGroups: [gateway.networking.k8s.io]
  resources: [httproutes]
  verbs: [get, list, create, patch, delete]
# BenchmarkJobs targeting another namespace: only where a ReferenceGrant there allows it (read only).
- apiGroups: [gateway.networking.k8s.io]
  resources: [referencegrants]
  verbs: [get, list]
# OtterScale ModelServices: the primaries, what their endpoint pickers get (config, leader election, rewrites) and
# the optional kinds (Istio DestinationRule, Prometheus Operator monitors).
- apiGroups: [model.otterscale.io]
  resources: [modelservices]
  verbs: [get, list, watch, patch, update]
- apiGroups: [model.otterscale.io]
  resources: [modelservices/status]
  verbs: [get, patch, update]
- apiGroups: [model.otterscale.io]
  resources: [modelservices/finalizers]
  verbs: [update]
# The picker's ConfigMap: applied, never read back or deleted (owner reference); operator-admission.yaml refuses
# writes of any other ConfigMap.
- apiGroups: [""]
  resources: [configmaps]
  verbs: [create, patch]
# Only because an HA picker's Role grants it.
- apiGroups: [coordination.k8s.io]
  resources: [leases]
  verbs: [get, list, watch, create, update, patch, delete]
- apiGroups: [inference.networking.x-k8s.io]
  resources: [inferencemodelrewrites]
  verbs: [get, list, watch]
- apiGroups: [networking.istio.io]
  resources: [destinationrules]
  verbs: [get, list, create, patch, delete]
- apiGroups: [monitoring.coreos.com]
  resources: [podmonitors, servicemonitors]
  verbs: [get, list, create, patch, delete]
{{- end -}}

{{/* OpenTelemetry settings of a traced container (tracing.otlpEndpoint set); "service" names it. */}}
{{- define "modelplane.tracingEnv" -}}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .Values.tracing.otlpEndpoint | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ .service | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ .Values.tracing.sampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ .Values.tracing.samplerArg | quote }}
{{- end -}}
