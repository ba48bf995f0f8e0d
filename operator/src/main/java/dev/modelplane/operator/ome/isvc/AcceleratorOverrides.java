package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.AcceleratorModelConfig;
import dev.modelplane.api.ome.v1beta1.TensorParallelismConfig;
import dev.modelplane.common.servers.SglangFlags;
import dev.modelplane.common.servers.VllmFlags;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a runtime's format says for the accelerator class a component runs on, applied to the serving container:
 * environment variables upserted by name, arguments replaced by flag ({@code --k=v}, {@code --k v} or a bare flag;
 * a flag the container lacks is appended), and tensor / pipeline / data parallel sizes rewritten wherever the
 * container writes them (its args, else its command). A container written as one shell line keeps that form.
 */
final class AcceleratorOverrides {
  static final List<String> TENSOR_FLAGS = List.of(SglangFlags.TP_SIZE, SglangFlags.TP,
      VllmFlags.TENSOR_PARALLEL_SIZE);
  static final List<String> PIPELINE_FLAGS = List.of(SglangFlags.PP_SIZE, SglangFlags.PP,
      VllmFlags.PIPELINE_PARALLEL_SIZE);
  static final List<String> DATA_FLAGS = List.of(SglangFlags.DP_SIZE, SglangFlags.DP, VllmFlags.DATA_PARALLEL_SIZE);

  private AcceleratorOverrides() {
  }

  /** Applies {@code config} to {@code container} in place; nothing when it is null. */
  static void apply(Container container, AcceleratorModelConfig config) {
    if (config == null || container == null) {
      return;
    }
    if (config.environmentOverride() != null) {
      List<EnvVar> env = container.getEnv() == null ? new ArrayList<>() : new ArrayList<>(container.getEnv());
      config.environmentOverride().forEach((name, value) -> {
        env.removeIf(e -> name.equals(e.getName()));
        env.add(new EnvVar(name, value, null));
      });
      container.setEnv(env);
    }
    if (config.runtimeArgsOverride() != null) {
      for (String override : config.runtimeArgsOverride()) {
        setFlag(container, override);
      }
    }
    TensorParallelismConfig tp = config.tensorParallelismOverride();
    if (tp != null) {
      rewrite(container, TENSOR_FLAGS, tp.tensorParallelSize());
      rewrite(container, PIPELINE_FLAGS, tp.pipelineParallelSize());
      rewrite(container, DATA_FLAGS, tp.dataParallelSize());
    }
  }

  /** Replaces the flag of {@code override} ({@code --k=v}, {@code --k v} or {@code --k}) or appends it. */
  static void setFlag(Container container, String override) {
    String trimmed = override.strip();
    String key = trimmed.split("[=\\s]", 2)[0];
    List<String> args = container.getArgs() == null ? new ArrayList<>() : new ArrayList<>(container.getArgs());
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals(key) || arg.startsWith(key + "=")) {
        boolean valueFollows = arg.equals(key) && i + 1 < args.size() && !args.get(i + 1).startsWith("-");
        List<String> replacement = List.of(trimmed.split("\\s+", 2));
        args.remove(i);
        if (valueFollows) {
          args.remove(i);
        }
        args.addAll(i, replacement);
        container.setArgs(args);
        return;
      }
      if (arg.contains(" " + key + " ") || arg.contains(" " + key + "=") || arg.endsWith(" " + key)
          || arg.contains("\n" + key)) {
        args.set(i, replaceInLine(arg, key, trimmed));
        container.setArgs(args);
        return;
      }
    }
    args.addAll(List.of(trimmed.split("\\s+", 2)));
    container.setArgs(args);
  }

  /** In a shell line, {@code key} with its value (if any) replaced by {@code override}. */
  private static String replaceInLine(String line, String key, String override) {
    Matcher m = Pattern.compile("(?<=\\s|^)" + Pattern.quote(key) + "(=\\S+|[ \\t]+(?!-)\\S+)?").matcher(line);
    return m.find() ? line.substring(0, m.start()) + override + line.substring(m.end()) : line;
  }

  private static void rewrite(Container container, List<String> flags, Long value) {
    if (value == null || value <= 0) {
      return;
    }
    for (String flag : flags) {
      List<String> args = rewritten(container.getArgs(), flag, value);
      if (args != null) {
        container.setArgs(args);
        return;
      }
    }
    for (String flag : flags) {
      List<String> command = rewritten(container.getCommand(), flag, value);
      if (command != null) {
        container.setCommand(command);
        return;
      }
    }
  }

  /** {@code list} with {@code flag}'s value set to {@code value}, or null when the flag is not there. */
  private static List<String> rewritten(List<String> list, String flag, long value) {
    if (list == null) {
      return null;
    }
    List<String> out = new ArrayList<>(list);
    for (int i = 0; i < out.size(); i++) {
      String item = out.get(i);
      if (item.equals(flag) && i + 1 < out.size()) {
        out.set(i + 1, Long.toString(value));
        return out;
      }
      if (item.startsWith(flag + "=")) {
        out.set(i, flag + "=" + value);
        return out;
      }
      if (item.contains(flag) && item.contains(" ")) {
        String line = replaceInLine(item, flag, flag + " " + value);
        if (!line.equals(item)) {
          out.set(i, line);
          return out;
        }
      }
    }
    return null;
  }
}
