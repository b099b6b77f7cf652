{{/* The chart name, or nameOverride; the app.kubernetes.io/name label. */}}
{{- define "karpenter.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Object names: fullnameOverride, else the release name when it already contains the chart name
(release "karpenter" gives "karpenter", the Service name Prometheus scrape configs expect), else
release-name. Names are DNS labels: at most 63 characters.
*/}}
{{- define "karpenter.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The labels that select the controller's pods; they never change across upgrades. */}}
{{- define "karpenter.selectorLabels" -}}
app.kubernetes.io/name: {{ include "karpenter.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels of every object. */}}
{{- define "karpenter.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "karpenter.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.additionalLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* metadata.annotations from additionalAnnotations, when there are any (indented for metadata). */}}
{{- define "karpenter.annotations" -}}
{{- with .Values.additionalAnnotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
{{- end }}
{{- end }}

{{/* The ServiceAccount the controller runs as. */}}
{{- define "karpenter.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "karpenter.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The one subject every binding grants to. */}}
{{- define "karpenter.subjects" -}}
subjects:
  - kind: ServiceAccount
    name: {{ include "karpenter.serviceAccountName" . }}
    namespace: {{ .Release.Namespace }}
{{- end }}

{{/* repository:tag, pinned to @digest when one is given. */}}
{{- define "karpenter.controller.image" -}}
{{- $image := printf "%s:%s" .Values.controller.image.repository (default .Chart.AppVersion .Values.controller.image.tag) }}
{{- with .Values.controller.image.digest }}
{{- $image = printf "%s@%s" $image . }}
{{- end }}
{{- $image }}
{{- end }}

{{- define "karpenter.controller.containerName" -}}
{{- default "controller" .Values.controller.containerName }}
{{- end }}

{{/*
A copy of .Values.affinity whose pod (anti-)affinity terms without a labelSelector select this
chart's pods, so the default "one replica per host" needs no selector in values.
*/}}
{{- define "karpenter.affinity" -}}
{{- $selector := dict "matchLabels" (include "karpenter.selectorLabels" . | fromYaml) }}
{{- $affinity := deepCopy .Values.affinity }}
{{- range $kind := list "podAffinity" "podAntiAffinity" }}
{{- with (get $affinity $kind) }}
{{- range $term := (get . "requiredDuringSchedulingIgnoredDuringExecution" | default list) }}
{{- if not (hasKey $term "labelSelector") }}
{{- $_ := set $term "labelSelector" $selector }}
{{- end }}
{{- end }}
{{- range $weighted := (get . "preferredDuringSchedulingIgnoredDuringExecution" | default list) }}
{{- if not (hasKey $weighted.podAffinityTerm "labelSelector") }}
{{- $_ := set $weighted.podAffinityTerm "labelSelector" $selector }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $affinity }}
{{- end }}

{{/* .Values.topologySpreadConstraints, each without a labelSelector given this chart's pods'. */}}
{{- define "karpenter.topologySpreadConstraints" -}}
{{- $selector := dict "matchLabels" (include "karpenter.selectorLabels" . | fromYaml) }}
{{- $constraints := deepCopy .Values.topologySpreadConstraints }}
{{- range $constraint := $constraints }}
{{- if not (hasKey $constraint "labelSelector") }}
{{- $_ := set $constraint "labelSelector" $selector }}
{{- end }}
{{- end }}
{{- toYaml $constraints }}
{{- end }}
