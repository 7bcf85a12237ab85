#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <sys/eventfd.h>
