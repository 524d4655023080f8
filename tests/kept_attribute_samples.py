"""Sources of a constructor keeping its arguments as attributes (`self.log_stats =
log_stats`) and of the builders filling them from flags: the link's tests
(`tests/link/test_kept_attributes.py`) and the pages' (`tests/explain/
test_kept_attribute_pages.py`, `tests/explain/test_entry_keywords.py`) read the same
package."""

ARGS = """
    from dataclasses import dataclass


    @dataclass
    class EngineArgs:
        disable_log_stats: bool = False
        trust_request_kwargs: bool = False

        def add_cli_args(parser):
            parser.add_argument("--disable-log-stats", action="store_true")
            parser.add_argument("--trust-request-kwargs", action="store_true")
    """

# an engine that keeps `log_stats` from its constructor, built by a classmethod from the
# arguments with the flag negated, and a method that needs it on
ENGINE = """
    from eng.args import EngineArgs


    class Engine:
        def __init__(self, config, log_stats: bool, name=None):
            self.config = config
            self.log_stats = log_stats

        @classmethod
        def from_engine_args(cls, engine_args: EngineArgs):
            return cls(config=None, log_stats=not engine_args.disable_log_stats)

        def get_metrics(self):
            assert self.log_stats, "Stat logging disabled"
            return []
    """

# a check in a helper given the attribute a server object kept from its builder
RENDERER = """
    def validate_kwargs(*, kwargs, trusted: bool):
        if trusted:
            return
        if kwargs:
            raise ValueError("Per-request kwargs are disabled")


    class Renderer:
        def __init__(self, model, trust_request_kwargs: bool = False):
            self.model = model
            self.trust_request_kwargs = trust_request_kwargs

        def render(self, request):
            validate_kwargs(kwargs=request.kwargs, trusted=self.trust_request_kwargs)
    """

SERVER = """
    from eng.render import Renderer


    def init_state(args, model):
        state = object()
        state.renderer = Renderer(model, trust_request_kwargs=args.trust_request_kwargs)
        return state
    """
