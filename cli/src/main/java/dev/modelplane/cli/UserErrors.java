package dev.modelplane.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.modelplane.cli.user.UserError;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The one place where a failed command becomes what the user reads: one line {@code error: …} on stderr and exit
 * code 1, like kubectl; the stack trace only with {@code --debug}. Commands throw; they do not format errors.
 */
final class UserErrors implements CommandLine.IExecutionExceptionHandler {
  /** Exit code of a command that failed on what it was given or found. */
  static final int FAILED = 1;
  static final String DEBUG = "--debug";

  /** Adds {@code --debug} to every command that has none of its own (the router's also enables debug logs). */
  static void addDebugOption(CommandLine cli) {
    CommandSpec spec = cli.getCommandSpec();
    if (!spec.optionsMap().containsKey(DEBUG)) {
      spec.addOption(OptionSpec.builder(DEBUG).arity("0").type(boolean.class)
          .description("On an error, print its stack trace too.").build());
    }
    cli.getSubcommands().values().stream().distinct().forEach(UserErrors::addDebugOption);
  }

  @Override
  public int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
    PrintWriter err = cli.getErr();
    err.println("error: " + describe(e));
    if (debug(cli)) {
      e.printStackTrace(err);
    }
    err.flush();
    return FAILED;
  }

  /** True when {@code --debug} was given to the command or any command above it. */
  private static boolean debug(CommandLine cli) {
    for (CommandLine c = cli; c != null; c = c.getParent()) {
      CommandLine.ParseResult result = c.getParseResult();
      if (result != null && result.hasMatchedOption(DEBUG)) {
        return true;
      }
    }
    return false;
  }

  /** The line after {@code error: } for {@code e}. */
  static String describe(Throwable e) {
    if (e instanceof UserError) {
      return e.getMessage();
    }
    if (e instanceof KubernetesClientException k) {
      return cluster(k);
    }
    if (e instanceof NoSuchFileException f) {
      return f.getFile() + ": no such file";
    }
    if (e instanceof AccessDeniedException f) {
      return f.getFile() + ": permission denied";
    }
    if (e instanceof JsonProcessingException j) {
      var at = j.getLocation();
      return (at != null && at.getLineNr() > 0 ? "line " + at.getLineNr() + ":" + at.getColumnNr() + ": " : "")
          + firstLine(j.getOriginalMessage());
    }
    if (e instanceof IllegalArgumentException || e instanceof IllegalStateException || e instanceof IOException) {
      return firstLine(e.getMessage()) + (e.getCause() != null && e.getCause() != e
          && !(e.getMessage() != null && e.getMessage().contains(String.valueOf(e.getCause().getMessage())))
          ? ": " + firstLine(e.getCause().getMessage()) : "");
    }
    return e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()) + " (" + DEBUG + " shows where)";
  }

  /** The API server's answer, or why it could not be reached. */
  private static String cluster(KubernetesClientException e) {
    Status status = e.getStatus();
    if (e.getCode() > 0 && status != null && status.getMessage() != null) {
      return "the cluster refused it (" + e.getCode() + "): " + firstLine(status.getMessage());
    }
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof ConnectException || c instanceof UnknownHostException) {
        return "cannot reach the cluster (" + firstLine(c.getMessage()) + "); is it running? modelplane up starts "
            + "one, --kubeconfig chooses another";
      }
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return "cluster: " + firstLine(root == e ? e.getMessage() : root.getMessage());
  }

  private static String firstLine(String message) {
    return message == null ? "(no message)" : message.strip().lines().findFirst().orElse("");
  }
}
