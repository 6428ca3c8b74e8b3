# What the soap4r peer servers share: what Debian's ruby-soap4r 2.0.5 needs to load on Ruby
# 3.1, and running a server until TERM or INT.
require 'logger'

# soap4r's HTTPServer derives from Logger::Application, which the logger gem dropped (1.4):
# the server cannot even be loaded on Ruby 3.1 without this stand-in.
unless defined?(Logger::Application)
  class Logger
    # What soap4r's HTTPServer uses of the old Logger::Application.
    class Application
      attr_reader :appname

      def initialize(appname = nil)
        @appname = appname
        @log = Logger.new($stderr)
      end

      def level=(level)
        @log.level = level
      end

      def start
        run
      end
    end
  end
end

# Serves `server` (a SOAP::RPC::StandaloneServer) until TERM or INT; prints READY first.
def run_soap4r_server(server)
  trap('TERM') { server.shutdown }
  trap('INT') { server.shutdown }
  puts 'READY'
  $stdout.flush
  server.start
end
