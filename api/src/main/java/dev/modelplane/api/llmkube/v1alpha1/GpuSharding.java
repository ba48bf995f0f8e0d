package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import java.util.List;

/**
 * How a model is split across the GPUs of one pod; only matters with more than one GPU.
 *
 * @param strategy Split method; {@code layer} by default (llama.cpp {@code --split-mode}).
 * @param layerSplit Layer ranges per GPU, in GPU order, for example {@code ["0-24", "25-39"]}; their sizes become the
 *     llama.cpp {@code --tensor-split} ratios. When empty the layers are split evenly.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GpuSharding(@Default("layer") ShardingStrategy strategy, List<String> layerSplit) {
}
