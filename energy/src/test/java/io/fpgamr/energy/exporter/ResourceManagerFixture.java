package io.fpgamr.energy.exporter;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * YARN's ResourceManager as its web services answer {@code GET /ws/v1/cluster/apps/{appid}}, on
 * loopback: the Cluster Application API's documented JSON (ResourceManagerRest.md, "Cluster
 * Application API", its response example's fields) for the applications it is given, and for any
 * other the 404 and {@code RemoteException} body of its {@code NotFoundException}. While
 * {@link #down} is set it answers 503, as a ResourceManager still starting or failing over does.
 */
public final class ResourceManagerFixture implements AutoCloseable {
    private final HttpServer server;
    private final Map<String, String> users = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
    public volatile boolean down;

    public ResourceManagerFixture() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ws/v1/cluster/apps/", this::app);
        server.start();
    }

    /** {@code application_T_N} was submitted by {@code user}. */
    public ResourceManagerFixture submitted(String app, String user) {
        users.put(app, user);
        return this;
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** How many times {@code app} was asked about. */
    public int asked(String app) {
        AtomicInteger n = asked.get(app);
        return n == null ? 0 : n.get();
    }

    private void app(HttpExchange x) throws IOException {
        String app = x.getRequestURI().getPath().substring("/ws/v1/cluster/apps/".length());
        asked.computeIfAbsent(app, k -> new AtomicInteger()).incrementAndGet();
        String user = users.get(app);
        if (down) {
            ExporterPages.send(x, 503, "text/plain", "ResourceManager is not active");
        } else if (user == null) {
            ExporterPages.send(x, 404, "application/json", "{\"RemoteException\":{\"exception\":\"NotFoundException\",\"message\":"
                + "\"java.lang.Exception: app with id: " + app + " not found\",\"javaClassName\":\"org.apache.hadoop.yarn.webapp.NotFoundException\"}}");
        } else {
            String ts = app.split("_")[1];
            ExporterPages.send(x, 200, "application/json", """
                {
                  "app": {
                    "id": "%1$s",
                    "user": "%2$s",
                    "name": "fpgamr md5 search",
                    "queue": "default",
                    "state": "RUNNING",
                    "finalStatus": "UNDEFINED",
                    "progress": 10,
                    "trackingUI": "ApplicationMaster",
                    "trackingUrl": "http://rm.example:8088/proxy/%1$s/",
                    "diagnostics": "",
                    "clusterId": %3$s,
                    "applicationType": "MAPREDUCE",
                    "applicationTags": "",
                    "priority": 0,
                    "startedTime": %3$s,
                    "finishedTime": 0,
                    "elapsedTime": 5000,
                    "amContainerLogs": "http://nm.example:8042/node/containerlogs/container_%4$s_01_000001/%2$s",
                    "amHostHttpAddress": "nm.example:8042",
                    "allocatedMB": 2048,
                    "allocatedVCores": 2,
                    "runningContainers": 2
                  }
                }
                """.formatted(app, user, ts, app.substring("application_".length())));
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
