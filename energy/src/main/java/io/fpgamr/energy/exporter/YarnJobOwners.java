package io.fpgamr.energy.exporter;

import com.fasterxml.jackson.databind.JsonNode;
import io.fpgamr.energy.JobOwners;
import io.fpgamr.energy.Mappers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileSystems;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A progress file is the job's owner's when the user owning the file is the user YARN says
 * submitted the job: the ResourceManager's {@code GET /ws/v1/cluster/apps/{appId}} ({@code app.user}),
 * that name looked up on this node. The job {@code job_T_N} is the application {@code application_T_N}.
 *
 * <p>Why YARN decides, not the spool's layout (a folder per user): a folder tells who wrote a
 * file, not whose the job it names is, and only the ResourceManager knows that. One rule follows
 * that an operator can check by hand: {@code stat -c %U FILE} against the application's user in
 * YARN's web UI.
 *
 * <p>{@link #check} never waits for the ResourceManager or the user database (it runs in a scrape):
 * an application not asked about yet is held (neither shown nor reported) while one thread asks;
 * the answer is kept (an application's user never changes; the {@value #MAX_APPS} most recently
 * used). An application YARN does not know is refused, and asked again after a minute. While the
 * ResourceManager does not answer, the jobs it has not named yet stay held, said once in the log,
 * and are asked about again every {@value #RETRY_MS} ms.
 */
final class YarnJobOwners implements JobOwners, AutoCloseable {
    private static final Pattern JOB = Pattern.compile("(?:job|application)_(\\d+)_(\\d+)");
    static final int MAX_APPS = 4096;
    /** How long YARN's "no such application" stands before it is asked again. */
    static final long REASK_MS = 60_000;
    /** How long after the ResourceManager failed to answer a held application is asked about again. */
    static final long RETRY_MS = 5_000;
    /** Lookups waiting at once: files naming many applications cannot queue unbounded work. */
    private static final int MAX_ASKING = 256;

    /** YARN's word on one application: its user and that user's principal here (null: no account), or not found. */
    private record Answer(long atMs, boolean found, String user, UserPrincipal principal) {
    }

    private final URI rm;
    private final Consumer<String> log;
    private final LongSupplier clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NORMAL).build(); // a standby ResourceManager redirects to the active one
    private final ExecutorService asker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fpgamr-exporter-yarn");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Answer> answers = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Answer> eldest) {
            return size() > MAX_APPS;
        }
    };
    private final Set<String> asking = new HashSet<>();
    private boolean down;
    private long failedMs;

    /** {@code rm}: the ResourceManager's web address, e.g. {@code http://rm:8088}. */
    YarnJobOwners(URI rm, Consumer<String> log, LongSupplier clock) {
        this.rm = rm;
        this.log = log;
        this.clock = clock;
    }

    @Override
    public Verdict check(String job, UserPrincipal fileOwner) {
        Matcher m = JOB.matcher(job);
        if (!m.matches()) {
            return Verdict.refused("job " + job + " is no YARN application, so it has no owner to check");
        }
        String app = "application_" + m.group(1) + "_" + m.group(2);
        Answer a;
        synchronized (this) {
            a = answers.get(app);
            long now = clock.getAsLong();
            // while the ResourceManager fails, held jobs wait RETRY_MS between tries instead of asking at every scrape
            if (a == null && (!down || now - failedMs >= RETRY_MS) || a != null && !a.found() && now - a.atMs() >= REASK_MS) {
                ask(app);
            }
        }
        if (a == null) {
            return Verdict.HELD;
        }
        if (!a.found()) {
            return Verdict.refused("YARN knows no application " + app);
        }
        if (a.principal() == null) {
            return Verdict.refused("YARN says " + a.user() + " submitted " + app + ", a user with no account on this node");
        }
        if (!a.principal().equals(fileOwner)) {
            return Verdict.refused("owned by " + fileOwner.getName() + ", but YARN says " + a.user() + " submitted " + app);
        }
        return Verdict.OWNER;
    }

    /** Asks about {@code app} in the background, unless it is being asked about or too many are. */
    private void ask(String app) {
        if (asking.size() >= MAX_ASKING || !asking.add(app)) {
            return;
        }
        try {
            asker.execute(() -> {
                Answer a = null;
                try {
                    a = lookUp(app);
                } finally {
                    synchronized (this) {
                        asking.remove(app);
                        if (a != null) {
                            answers.put(app, a);
                        }
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            asking.remove(app); // closed: the exporter is stopping, the job stays held
        }
    }

    /** YARN's answer, or null when the ResourceManager gave none (the application stays held). */
    private Answer lookUp(String app) {
        HttpRequest req = HttpRequest.newBuilder(rm.resolve("/ws/v1/cluster/apps/" + app)).timeout(Duration.ofSeconds(10))
            .header("Accept", "application/json").GET().build();
        String why;
        try {
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404) {
                answered();
                return new Answer(clock.getAsLong(), false, null, null);
            }
            if (r.statusCode() == 200) {
                JsonNode user = Mappers.JSON.readTree(r.body()).path("app").path("user");
                if (user.isTextual() && !user.asText().isBlank()) {
                    UserPrincipal here = principal(user.asText());
                    answered();
                    return new Answer(clock.getAsLong(), true, user.asText(), here);
                }
                why = "its answer names no user";
            } else {
                why = "HTTP " + r.statusCode();
            }
        } catch (IOException e) {
            why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        synchronized (this) {
            failedMs = clock.getAsLong();
            if (!down) {
                down = true;
                log.accept("ResourceManager " + rm + " gave no answer about " + app + " (" + why.lines().findFirst().orElse("")
                    + "): the progress of jobs it has not named yet is held until it answers");
            }
        }
        return null;
    }

    private synchronized void answered() {
        if (down) {
            down = false;
            log.accept("ResourceManager " + rm + " answers again");
        }
    }

    /** The user's principal on this node (its uid), or null when it has no account here; an unreadable user database throws. */
    private static UserPrincipal principal(String user) throws IOException {
        try {
            return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(user);
        } catch (UserPrincipalNotFoundException e) {
            return null;
        }
    }

    @Override
    public void close() {
        asker.shutdownNow();
    }
}
