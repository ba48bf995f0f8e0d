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

{{- /* What the operator does to cluster-scoped objects (always a ClusterRole). */ -}}
{{- define "modelplane.operator.clusterRules" -}}
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
- apiGroups: [""]
  resources: [nodes]
  verbs: [get, list, watch]
- apiGroups: [scheduling.k8s.io]
  resources: [priorityclasses]
  verbs: [get, list, watch]
# Events of cluster-scoped objects go to the default namespace.
- apiGroups: [""]
  resources: [events]
  verbs: [create, patch]
{{- end -}}

{{- /* What the operator does in the namespaces it serves. */ -}}
{{- define "modelplane.operator.namespacedRules" -}}
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
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get, list, watch, create, patch, update, delete]
- apiGroups: [apps]
  resources: [replicasets]
  verbs: [get, list, patch, update]
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
- apiGroups: [""]
  resources: [serviceaccounts]
  verbs: [get, list, create, patch, delete]
- apiGroups: [rbac.authorization.k8s.io]
  resources: [roles, rolebindings]
  verbs: [get, list, create, patch, delete]
- apiGroups: [inference.networking.k8s.io]
  resources: [inferencepools]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [inference.networking.x-k8s.io]
  resources: [inferenceobjectives]
  verbs: [get, list, watch]
- apiGroups: [batch]
  resources: [jobs]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [""]
  resources: [persistentvolumeclaims]
  verbs: [get, list, watch, create, patch, delete]
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
{{- end -}}
