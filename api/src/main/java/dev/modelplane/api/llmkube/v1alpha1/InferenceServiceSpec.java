package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.List;
import java.util.Map;

/**
 * What to serve, with which model server, how many copies, and how the pods are built and exposed. Fields named after
 * llama.cpp flags only affect the {@code llamacpp} runtime; {@code vllmConfig}, {@code sglangConfig},
 * {@code tgiConfig} and {@code personaPlexConfig} tune the other runtimes.
 *
 * @param modelRef Name of the Model to serve, in the same namespace. The service stays Pending until that Model is
 *     Ready and fails if it does not exist.
 * @param replicas Desired number of inference pods, 0 to 10; 1 by default. 0 stops the service (phase Stopped). With
 *     {@code autoscaling} this is only the starting count, after which the autoscaler decides. This is the field the
 *     {@code /scale} subresource writes.
 * @param suspend Holds the service at zero pods without touching {@code replicas}, which applies again once this is
 *     false; the phase is then {@code Suspended} and no autoscaler exists. Meant for admission controllers such as
 *     Kueue, which keep a queued service suspended until its quota admits it. False by default.
 * @param runtime The model server to run; {@code llamacpp} by default.
 * @param mode What the server serves: {@code chat}, {@code embedding} or {@code rerank}. For llama.cpp the mode's
 *     flags are added unless already in {@code extraArgs}; SGLang gets {@code --is-embedding} for embeddings. When
 *     unset the mode is inferred from {@code extraArgs} and {@code endpoint.path}; the result is reported in
 *     {@code status.mode}.
 * @param image Container image of the model server. When unset, each runtime picks its own default (for llama.cpp a
 *     CPU or GPU build of {@code llama-server} depending on the Model's hardware). Required with the {@code generic}
 *     runtime, which has no default.
 * @param command Replaces the container's entrypoint. Meant for the {@code generic} runtime and for unusual setups.
 * @param args Replaces the container's arguments entirely. Only the {@code generic} runtime uses it; for llama.cpp
 *     use {@code extraArgs}.
 * @param extraArgs Extra command-line flags appended after every flag the controller generates, so they win over
 *     typed fields on duplicates. A typed field is skipped when the same flag is found here. Ignored by the
 *     {@code personaplex} and {@code generic} runtimes. Example: {@code ["--seed", "42"]}.
 * @param env Extra environment variables for the model-server container, added after the runtime's own (for example
 *     {@code HF_TOKEN} from a Secret).
 * @param bindAddress Address the model server listens on ({@code --host}; {@code --hostname} for TGI); {@code ::} (all
 *     IPv4 and IPv6 addresses) when unset. Skipped when {@code extraArgs} already sets that flag.
 * @param containerPort Port the model server listens on inside the pod, 1 to 65535. When unset,
 *     {@code endpoint.port} is used, else the runtime's default (8080 for llama.cpp).
 * @param endpoint How the service is exposed: Service type, port and request path.
 * @param resources CPU, memory and GPU requests of each inference pod.
 * @param autoscaling Turns on horizontal autoscaling: the controller manages a HorizontalPodAutoscaler for the
 *     service's Deployment. Custom per-pod metrics need a custom-metrics API such as the Prometheus adapter.
 * @param contextSize Context window in tokens, 128 to 2,097,152 (llama.cpp {@code --ctx-size}). When unset the
 *     server's own default applies. The KV cache grows with it: size {@code resources.memory} or
 *     {@code resources.hostMemory} to match.
 * @param parallelSlots Number of requests served concurrently, 1 to 64 (llama.cpp {@code --parallel}, vLLM
 *     {@code --max-num-seqs}). Each slot needs its own KV cache. When unset the server chooses.
 * @param batchSize Logical batch size for prompt processing, 1 to 16,384 (llama.cpp {@code --batch-size}). Larger
 *     batches are faster and use more memory.
 * @param uBatchSize Physical micro-batch size, at least 1 (llama.cpp {@code --ubatch-size}). Smaller values lower
 *     peak memory.
 * @param flashAttention Turns on flash attention (llama.cpp {@code --flash-attn on}): faster prompts and a smaller
 *     KV cache. Only applied when the pod has a GPU; NVIDIA GPUs need compute capability 8.0 (Ampere) or newer. On
 *     the Apple Silicon host agent it is on unless set to false.
 * @param jinja Renders chat templates with Jinja (llama.cpp {@code --jinja}), which tool and function calling
 *     through the OpenAI-compatible API needs.
 * @param cacheTypeK Element type of the KV cache's keys (llama.cpp {@code --cache-type-k}); the server's default is
 *     {@code f16}. For a type outside this list use {@code cacheTypeCustomK}.
 * @param cacheTypeV Element type of the KV cache's values (llama.cpp {@code --cache-type-v}); the server's default is
 *     {@code f16}. For a type outside this list use {@code cacheTypeCustomV}.
 * @param cacheTypeCustomK Key cache type passed to llama.cpp unchecked, for builds with extra cache formats (such as
 *     TurboQuant's {@code turbo3}). The image must support it or the server will not start. Wins over
 *     {@code cacheTypeK} when both are set.
 * @param cacheTypeCustomV Value cache type passed to llama.cpp unchecked, like {@code cacheTypeCustomK}. Wins over
 *     {@code cacheTypeV} when both are set.
 * @param moeCPUOffload Keeps all mixture-of-experts expert weights in system RAM while attention stays on the GPU
 *     (llama.cpp {@code --cpu-moe}), so large MoE models fit in little VRAM. Set {@code resources.hostMemory} (or
 *     {@code resources.memory}) so the scheduler accounts for the RAM.
 * @param moeCPULayers Number of MoE layers whose experts stay in system RAM, at least 0 (llama.cpp
 *     {@code --n-cpu-moe}); a finer-grained alternative to {@code moeCPUOffload}. 0 sends no flag.
 * @param noKvOffload Keeps the KV cache in system RAM instead of VRAM (llama.cpp {@code --no-kv-offload}), for long
 *     contexts when the weights fill the GPU. Set {@code resources.hostMemory} (or {@code resources.memory}) to
 *     match.
 * @param tensorOverrides Tensor placement rules, one llama.cpp {@code --override-tensor} flag each, written as
 *     {@code PATTERN=DEVICE} (for example {@code exps=CPU} or {@code token_embd=CUDA0}).
 * @param metadataOverrides GGUF metadata overrides applied when the model loads, one llama.cpp
 *     {@code --override-kv} flag each, written as {@code key=type:value} (for example
 *     {@code qwen35moe.context_length=int:1048576}).
 * @param noWarmup Skips llama.cpp's warm-up inference at start-up ({@code --no-warmup}): pods become ready sooner and
 *     the first request is a little slower. Useful with scale-to-zero.
 * @param reasoningBudget Maximum number of reasoning (thinking) tokens per response, at least 0 (llama.cpp
 *     {@code --reasoning-budget}). 0 hides the thinking output altogether.
 * @param reasoningBudgetMessage Text injected when the reasoning budget runs out, to make the model conclude
 *     (llama.cpp {@code --reasoning-budget-message}). Has no effect without {@code reasoningBudget}.
 * @param ropeScaling RoPE context extension, to serve a model beyond the context it was trained for. Skipped when
 *     {@code extraArgs} already contains {@code --rope-scaling}.
 * @param speculativeDecoding Speculative decoding for the {@code llamacpp} runtime; other runtimes must not set it.
 * @param vllmConfig Settings for the {@code vllm} runtime; ignored by the others.
 * @param sglangConfig Settings for the {@code sglang} runtime; ignored by the others.
 * @param tgiConfig Settings for the {@code tgi} runtime; ignored by the others.
 * @param personaPlexConfig Settings for the {@code personaplex} runtime; ignored by the others.
 * @param modelCache Where this service caches downloaded model weights, overriding the controller-wide cache mode.
 * @param skipModelInit Leaves out the init container that downloads the model into the cache, for images that
 *     contain the model or fetch it themselves (for example with {@code HF_TOKEN}).
 * @param probeOverrides Replacements for the health probes the controller generates for the runtime.
 * @param rolloutPolicy When pod-template changes are rolled out, for example only once the servers are idle.
 * @param revisionHistoryLimit Old ReplicaSets the Deployment keeps for rollback, at least 0; Kubernetes' default
 *     (10) when unset.
 * @param maxPodLifetimeSeconds Age in seconds, at least 1, after which a pod is recycled: the controller evicts one
 *     expired pod at a time through the Eviction API (so PodDisruptionBudgets apply), measured from the pod's start
 *     time. Best effort, not a deadline; with {@code rolloutPolicy.waitForIdle} it waits for the server to be idle
 *     first. With a single replica the service is down while the model reloads. Useful to release leaked driver
 *     memory. Pods are never recycled when unset.
 * @param maxPodLifetimeIdleTimeoutSeconds How long, in seconds from expiry, recycling waits for an idle server before
 *     evicting anyway, at least 0; 0 evicts without waiting. Only applies with {@code rolloutPolicy.waitForIdle};
 *     when unset the wait has no limit.
 * @param disruption Protection of starting (or all) pods against voluntary node disruption by Karpenter or the
 *     cluster autoscaler.
 * @param slo A service-level objective, turned into a Pyrra {@code ServiceLevelObjective}.
 * @param priority Priority tier when GPUs are scarce, {@code normal} by default. It selects one of the
 *     {@code llmkube-*} PriorityClasses and is reported as {@code status.effectivePriority}.
 * @param priorityClassName A PriorityClass to use for the pods instead of the one {@code priority} selects.
 * @param evictionProtection Exempts this service from memory-pressure eviction by the Apple Silicon host agent's
 *     watchdog (which still reports the MemoryPressure condition). No effect elsewhere or when eviction is off.
 *     False by default. Recorded, not acted on: modelplane runs no Apple Silicon host agent.
 * @param nodeSelector Node labels the pods must match, added to any selector the controller sets itself.
 * @param tolerations Tolerations added after the GPU toleration the controller generates.
 * @param affinity Node and pod affinity and anti-affinity of the pods, passed to the pod spec as it is; finer than
 *     {@code nodeSelector}, for example to prefer or avoid nodes running other GPU workloads.
 * @param topologySpreadConstraints How the pods spread across topology domains such as nodes or zones, passed to the
 *     pod spec as they are. With {@code podLabels} the selector can also match other GPU workloads.
 * @param imagePullSecrets Secrets for pulling images from private registries.
 * @param runtimeClassName RuntimeClass of the pods, for example {@code nvidia} on clusters where the NVIDIA container
 *     runtime is not the default (without it the container cannot see the GPU).
 * @param podSecurityContext Pod-level security settings, merged field by field over the controller's restricted
 *     defaults (runAsNonRoot with a numeric non-root user and group, seccomp {@code RuntimeDefault}, an
 *     {@code fsGroup}): the fields given win, for example an {@code fsGroup} that OpenShift allows.
 *     {@code runAsNonRoot: false} or {@code runAsUser: 0} opt out of running as non-root.
 * @param securityContext Security settings of the model-server container, merged field by field over the
 *     controller's defaults (no privilege escalation, all capabilities dropped; capabilities listed under
 *     {@code add} are added back).
 * @param podLabels Extra labels on the pods. The controller's own labels win on a clash, and the Deployment's
 *     selector only uses the controller's labels, so these may change freely.
 * @param podAnnotations Extra annotations on the pods, for tools such as cost attribution or service meshes.
 * @param extraVolumes Volumes added to the pods after the model volumes, for example a kernel cache of the runtime or
 *     the models directory of {@code llamacpp-router}. Mount them with {@code extraVolumeMounts}.
 * @param extraVolumeMounts Mounts added to the model-server container after the model mounts; each names a volume of
 *     {@code extraVolumes} (or of another pod field).
 * @param hotCacheMaxSize Largest size of the in-RAM hot KV cache of oMLX, written like {@code 100GB}
 *     ({@code --hot-cache-max-size}). Only the oMLX server of the Apple Silicon host agent uses it. Recorded, not
 *     acted on: modelplane runs no Apple Silicon host agent.
 * @param pagedSSDCacheDir Directory of the paged SSD KV cache of oMLX, which must exist and be writable
 *     ({@code --paged-ssd-cache-dir}); lets the cache outgrow RAM. Only the oMLX server of the Apple Silicon host
 *     agent uses it. Recorded, not acted on: modelplane runs no Apple Silicon host agent.
 * @param pagedSSDCacheMaxSize Largest size of the paged SSD KV cache of oMLX, written like {@code 200GB}
 *     ({@code --paged-ssd-cache-max-size}). Only the oMLX server of the Apple Silicon host agent uses it.
 *     Recorded, not acted on: modelplane runs no Apple Silicon host agent.
 * @param turboQuantBits Bits per KV cache element, 3, 6 or 8, when oMLX compresses the cache with TurboQuant
 *     ({@code --kv-cache-quant}); 3 needs oMLX 0.3.4 or later. Only the oMLX server of the Apple Silicon host agent
 *     uses it. Recorded, not acted on: modelplane runs no Apple Silicon host agent.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.runtime) || self.runtime != 'generic' || (has(self.image) && self.image.size() > 0)",
    message = "spec.image is required when spec.runtime is generic", fieldPath = ".image",
    reason = "FieldValueRequired")
public record InferenceServiceSpec(
    @Required String modelRef,
    @SpecReplicas @Min(0) @Max(10) @Default("1") Integer replicas,
    @Default("false") Boolean suspend,
    @Default("llamacpp") InferenceRuntime runtime,
    ServingMode mode,
    String image,
    List<String> command,
    List<String> args,
    List<String> extraArgs,
    List<EnvVar> env,
    String bindAddress,
    @Min(1) @Max(65535) Integer containerPort,
    EndpointSpec endpoint,
    InferenceResources resources,
    AutoscalingSpec autoscaling,
    @Min(128) @Max(2097152) Integer contextSize,
    @Min(1) @Max(64) Integer parallelSlots,
    @Min(1) @Max(16384) Integer batchSize,
    @Min(1) Integer uBatchSize,
    Boolean flashAttention,
    Boolean jinja,
    KvCacheType cacheTypeK,
    KvCacheType cacheTypeV,
    String cacheTypeCustomK,
    String cacheTypeCustomV,
    Boolean moeCPUOffload,
    @Min(0) Integer moeCPULayers,
    Boolean noKvOffload,
    List<String> tensorOverrides,
    List<String> metadataOverrides,
    Boolean noWarmup,
    @Min(0) Integer reasoningBudget,
    String reasoningBudgetMessage,
    RopeScaling ropeScaling,
    SpeculativeDecoding speculativeDecoding,
    VllmConfig vllmConfig,
    SglangConfig sglangConfig,
    TgiConfig tgiConfig,
    PersonaPlexConfig personaPlexConfig,
    ModelCacheSpec modelCache,
    Boolean skipModelInit,
    ProbeOverrides probeOverrides,
    RolloutPolicy rolloutPolicy,
    @Min(0) Integer revisionHistoryLimit,
    @Min(1) Long maxPodLifetimeSeconds,
    @Min(0) Long maxPodLifetimeIdleTimeoutSeconds,
    DisruptionSpec disruption,
    SloSpec slo,
    @Default("normal") SchedulingPriority priority,
    String priorityClassName,
    Boolean evictionProtection,
    Map<String, String> nodeSelector,
    List<Toleration> tolerations,
    Affinity affinity,
    List<TopologySpreadConstraint> topologySpreadConstraints,
    List<LocalObjectReference> imagePullSecrets,
    String runtimeClassName,
    PodSecurityContext podSecurityContext,
    SecurityContext securityContext,
    Map<String, String> podLabels,
    Map<String, String> podAnnotations,
    List<Volume> extraVolumes,
    List<VolumeMount> extraVolumeMounts,
    String hotCacheMaxSize,
    String pagedSSDCacheDir,
    String pagedSSDCacheMaxSize,
    @SchemaPatch("{\"enum\":[3,6,8]}") Integer turboQuantBits) {
}
