"""The cluster client's startup nodes through a failover (events/steady_cluster.py)."""

from redis.asyncio.cluster import ClusterNode

from events.steady_cluster import SteadyCluster


def test_a_node_taken_out_while_the_startup_nodes_are_walked_ends_no_walk():
    """A refresh of the topology walks the startup nodes, waiting on each; a command that
    finds a node gone takes it out meanwhile (redis-py does so), and the walk goes on over
    the nodes as they were when it began."""
    client = SteadyCluster(host="127.0.0.1", port=7000)
    nodes = client.nodes_manager.startup_nodes
    nodes["127.0.0.1:7001"] = ClusterNode("127.0.0.1", 7001)
    walked = []
    for node in nodes.values():
        walked.append(node.name)
        nodes.pop(node.name, None)
    assert walked == ["127.0.0.1:7000", "127.0.0.1:7001"]
    assert not nodes
